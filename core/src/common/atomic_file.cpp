#include "gwb/common/atomic_file.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include <dirent.h>

namespace gwb {

namespace {

void setError(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}

std::string errnoText() { return std::strerror(errno); }

// ---- temporary files removed by SIGINT / SIGTERM / SIGHUP ----

constexpr std::size_t kTempSlots = 256;
std::array<std::atomic<const char*>, kTempSlots> tempSlots{};
constexpr std::array<int, 3> kCleanupSignals = {SIGINT, SIGTERM, SIGHUP};
std::array<struct sigaction, kCleanupSignals.size()> previousActions{};
std::array<bool, kCleanupSignals.size()> installed{};
std::mutex handlerMutex;
int registeredTemps = 0;

extern "C" void removeTempsAndReraise(int signal) {
  for (auto& slot : tempSlots) {
    if (const char* path = slot.load()) ::unlink(path);
  }
  // Back to the action the signal had before (the default: installed only over SIG_DFL), then
  // deliver it again so that the process ends as the signal says.
  for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
    if (kCleanupSignals[i] == signal && installed[i])
      ::sigaction(signal, &previousActions[i], nullptr);
  }
  ::raise(signal);
}

// Puts `path` on the list the handler removes; -1 when the list is full (then only the normal
// exit paths remove it).
int registerTemp(const char* path) {
  std::lock_guard<std::mutex> lock(handlerMutex);
  for (std::size_t i = 0; i < kTempSlots; ++i) {
    const char* expected = nullptr;
    if (tempSlots[i].compare_exchange_strong(expected, path)) {
      if (registeredTemps++ == 0) {
        for (std::size_t s = 0; s < kCleanupSignals.size(); ++s) {
          struct sigaction current {};
          installed[s] = false;
          if (::sigaction(kCleanupSignals[s], nullptr, &current) != 0) continue;
          const bool isDefault =
              (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
          if (!isDefault) continue;  // ignored, or handled by the program: leave it alone
          struct sigaction action {};
          action.sa_handler = removeTempsAndReraise;
          sigemptyset(&action.sa_mask);
          previousActions[s] = current;
          installed[s] = ::sigaction(kCleanupSignals[s], &action, nullptr) == 0;
        }
      }
      return static_cast<int>(i);
    }
  }
  return -1;
}

void unregisterTemp(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(handlerMutex);
  tempSlots[static_cast<std::size_t>(slot)] = nullptr;
  if (--registeredTemps == 0) {
    for (std::size_t s = 0; s < kCleanupSignals.size(); ++s) {
      if (installed[s]) ::sigaction(kCleanupSignals[s], &previousActions[s], nullptr);
      installed[s] = false;
    }
  }
}

// ---- paths ----

std::string directoryOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string baseNameOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Follows symbolic links (a chain of at most 40) to the path that is really written; a dangling
// link yields the path it names, which is then created.
bool followLinks(const std::string& path, std::string* target, std::string* error) {
  std::string current = path;
  for (int hop = 0; hop < 40; ++hop) {
    struct stat info {};
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) {
      *target = current;
      return true;
    }
    std::string link(4096, '\0');
    const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
    if (length < 0) {
      setError(error, "cannot follow the link " + current + ": " + errnoText());
      return false;
    }
    link.resize(static_cast<std::size_t>(length));
    current = !link.empty() && link.front() == '/' ? link : directoryOf(current) + "/" + link;
  }
  setError(error, "cannot write " + path + ": too many levels of symbolic links");
  return false;
}

// Removes TARGET.tmp-PID-XXXXXX files whose process is gone (a writer killed outright), and
// TARGET.tmp-XXXXXX files of versions that did not name the process.
void removeStaleTemps(const std::string& target) {
  const std::string dir = directoryOf(target);
  const std::string prefix = baseNameOf(target) + ".tmp-";
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    bool stale = false;
    if (dash == std::string::npos) {
      stale = rest.size() == 6;  // the old TARGET.tmp-XXXXXX
    } else {
      const std::string pidText = rest.substr(0, dash);
      if (!pidText.empty() && pidText.find_first_not_of("0123456789") == std::string::npos &&
          pidText.size() < 10) {
        const auto pid = static_cast<pid_t>(std::stol(pidText));
        stale = pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
      }
    }
    if (stale) ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(listing);
}

bool writeAll(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Writes to standard output, a FIFO, a device or a socket in place.
bool writeThrough(const std::string& path, const std::string& content, std::string* error) {
  if (path == "-") {
    std::cout << content << std::flush;
    if (std::cout.good()) return true;
    setError(error, "cannot write to standard output");
    return false;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    setError(error, "cannot open " + path + ": " + errnoText());
    return false;
  }
  const bool ok = writeAll(fd, content);
  const std::string reason = errnoText();
  ::close(fd);
  if (!ok) setError(error, "cannot write " + path + ": " + reason);
  return ok;
}

void syncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

// The manifest names files relative to its own folder when they are in or below it.
std::string nameInManifest(const std::string& manifest, const std::string& path) {
  const std::string dir = directoryOf(manifest);
  if (directoryOf(path) == dir) return baseNameOf(path);
  if (dir != "." && path.compare(0, dir.size() + 1, dir + "/") == 0)
    return path.substr(dir.size() + 1);
  return path;
}

std::function<void(std::size_t)>& renameHook() {
  static std::function<void(std::size_t)> hook;
  return hook;
}

constexpr const char* kManifestHeader =
    "# gwb output set: written after every file below; the set is whole when each file has "
    "this size and FNV-1a hash\nfile\tbytes\tfnv1a64\n";

}  // namespace

AtomicOutputSet::AtomicOutputSet(std::string manifestPath)
    : manifestPath_(std::move(manifestPath)) {}

AtomicOutputSet::~AtomicOutputSet() { removeTemps(); }

void AtomicOutputSet::add(std::string path, std::string content) {
  Entry entry;
  entry.path = std::move(path);
  entry.content = std::move(content);
  entries_.push_back(std::move(entry));
}

void AtomicOutputSet::removeTemps() {
  for (Entry& e : entries_) {
    if (!e.temp.empty()) ::unlink(e.temp.c_str());
    unregisterTemp(e.slot);
    e.slot = -1;
    e.temp.clear();
  }
}

bool AtomicOutputSet::commit(std::string* error) {
  // 1. Where each file really goes.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    if (e.path == "-") {
      e.writeThrough = true;
      continue;
    }
    // What the path finally names, as the kernel follows it (/dev/stdout -> /proc/self/fd/1 ->
    // a pipe whose "link" is no path at all).
    struct stat info {};
    if (::stat(e.path.c_str(), &info) == 0) {
      if (S_ISDIR(info.st_mode)) {
        setError(error, "cannot write " + e.path + ": it is a directory");
        return false;
      }
      e.writeThrough = !S_ISREG(info.st_mode);
    }
    // /dev/stdout or /proc/self/fd/1 redirected to a regular file is still that open file:
    // write into it rather than replace whatever it names.
    const auto under = [&](const char* folder) { return e.path.rfind(folder, 0) == 0; };
    if (under("/dev/") || under("/proc/")) e.writeThrough = true;
    if (e.writeThrough) {
      e.target = e.path;
    } else if (!followLinks(e.path, &e.target, error)) {
      return false;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!e.writeThrough && entries_[j].target == e.target) {
        setError(error, "cannot write " + e.path + " twice in one set");
        return false;
      }
    }
  }
  // 2. Every regular file into a temporary beside its target, on disk.
  for (Entry& e : entries_) {
    if (e.writeThrough) continue;
    removeStaleTemps(e.target);
    std::string temp = e.target + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX";
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0) {
      setError(error, "cannot create a temporary file beside " + e.path + ": " + errnoText());
      removeTemps();
      return false;
    }
    e.temp = std::move(temp);
    e.slot = registerTemp(e.temp.c_str());
    // mkstemp makes the file owner-only; give it the target's mode, or what a new file would get.
    struct stat existing {};
    if (::stat(e.target.c_str(), &existing) == 0) {
      ::fchmod(fd, existing.st_mode & 07777);
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      ::fchmod(fd, 0666 & ~mask);
    }
    const bool written = writeAll(fd, e.content) && ::fsync(fd) == 0;
    const std::string reason = errnoText();
    ::close(fd);
    if (!written) {
      setError(error, "cannot write " + e.path + ": " + reason);
      removeTemps();
      return false;
    }
  }
  // 3. The old manifest goes first: from here until the new one exists, the set is incomplete.
  if (!manifestPath_.empty() && ::unlink(manifestPath_.c_str()) != 0 && errno != ENOENT) {
    setError(error, "cannot remove the old manifest " + manifestPath_ + ": " + errnoText());
    removeTemps();
    return false;
  }
  // 4. Into place.
  std::size_t renamed = 0;
  for (Entry& e : entries_) {
    if (e.writeThrough) continue;
    if (std::rename(e.temp.c_str(), e.target.c_str()) != 0) {
      setError(error, "cannot rename " + e.temp + " to " + e.target + ": " + errnoText());
      removeTemps();
      return false;
    }
    unregisterTemp(e.slot);
    e.slot = -1;
    e.temp.clear();
    ++renamed;
    if (renameHook()) renameHook()(renamed);
  }
  for (Entry& e : entries_) {
    if (e.writeThrough && !writeThrough(e.path == "-" ? e.path : e.target, e.content, error))
      return false;
  }
  if (manifestPath_.empty()) return true;
  // 5. The manifest, last, once the renames are on disk.
  std::ostringstream manifest;
  manifest << kManifestHeader;
  for (const Entry& e : entries_) {
    if (e.writeThrough) continue;
    syncDirectory(directoryOf(e.target));
    manifest << nameInManifest(manifestPath_, e.path) << '\t' << e.content.size() << '\t'
             << hex64(fnv1a64(e.content)) << '\n';
  }
  AtomicOutputSet manifestFile("");
  manifestFile.add(manifestPath_, manifest.str());
  return manifestFile.commit(error);
}

bool verifyOutputSet(const std::string& manifestPath, std::string* error) {
  std::string text;
  if (!readWholeFile(manifestPath, &text, error)) return false;
  std::istringstream in(text);
  std::string line;
  int lineNumber = 0;
  bool sawHeader = false;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (line.empty() || line.front() == '#') continue;
    if (!sawHeader) {
      sawHeader = line == "file\tbytes\tfnv1a64";
      if (!sawHeader) {
        setError(error, manifestPath + ":" + std::to_string(lineNumber) +
                            ": expected the header file<TAB>bytes<TAB>fnv1a64");
        return false;
      }
      continue;
    }
    const std::size_t tab1 = line.find('\t');
    const std::size_t tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos) {
      setError(error, manifestPath + ":" + std::to_string(lineNumber) +
                          ": expected FILE<TAB>BYTES<TAB>HASH");
      return false;
    }
    std::string name = line.substr(0, tab1);
    const std::string bytes = line.substr(tab1 + 1, tab2 - tab1 - 1);
    const std::string hash = line.substr(tab2 + 1);
    const std::string path = name.front() == '/' ? name : directoryOf(manifestPath) + "/" + name;
    std::string content;
    if (!readWholeFile(path, &content, nullptr)) {
      setError(error, path + " is missing (listed in " + manifestPath + ")");
      return false;
    }
    if (std::to_string(content.size()) != bytes || hex64(fnv1a64(content)) != hash) {
      setError(error, path + " is not the file " + manifestPath + " lists (another run's?)");
      return false;
    }
  }
  if (!sawHeader) {
    setError(error, manifestPath + ": not a gwb output manifest");
    return false;
  }
  return true;
}

void setOutputSetRenameHook(std::function<void(std::size_t)> hook) {
  renameHook() = std::move(hook);
}

bool writeFileAtomically(const std::string& path, const std::function<bool(std::ostream&)>& write,
                         std::string* error) {
  std::ostringstream content;
  if (!write(content) || !content.good()) {
    if (error && error->empty()) setError(error, "cannot write " + path);
    return false;
  }
  AtomicOutputSet set("");
  set.add(path, content.str());
  return set.commit(error);
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
