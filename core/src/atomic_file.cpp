#include "gwb/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace gwb {

namespace {
void setError(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}
}  // namespace

bool writeFileAtomically(const std::string& path, const std::function<bool(std::ostream&)>& write,
                         std::string* error) {
  std::string tempPath = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tempPath.data());
  if (fd < 0) {
    setError(error, "cannot create a temporary file beside " + path + ": " + std::strerror(errno));
    return false;
  }
  // mkstemp makes the file owner-only; give it the target's mode, or what a new file would get.
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) {
    ::fchmod(fd, existing.st_mode & 07777);
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  ::close(fd);
  bool ok = false;
  {
    std::ofstream out(tempPath, std::ios::binary | std::ios::trunc);
    ok = out.good() && write(out);
    out.flush();
    ok = ok && out.good();
  }
  if (ok) {
    // Make the data durable before the rename makes it visible.
    const int syncFd = ::open(tempPath.c_str(), O_RDONLY);
    if (syncFd >= 0) {
      ::fsync(syncFd);
      ::close(syncFd);
    }
    if (std::rename(tempPath.c_str(), path.c_str()) == 0) return true;
    setError(error, "cannot rename " + tempPath + " to " + path + ": " + std::strerror(errno));
  } else if (error && error->empty()) {
    setError(error, "cannot write " + path + ": " + std::strerror(errno));
  }
  std::remove(tempPath.c_str());
  return false;
}

bool readWholeFile(const std::string& path, std::string* text, std::string* error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    setError(error, "cannot read " + path + ": it is a directory");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    setError(error, "cannot open " + path + ": " + std::strerror(errno));
    return false;
  }
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    setError(error, "cannot read " + path + ": " + std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace gwb
