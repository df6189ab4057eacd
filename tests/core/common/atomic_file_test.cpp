#include "gwb/common/atomic_file.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

namespace gwb {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gwb-atomic-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& file) {
    std::string text;
    EXPECT_TRUE(readWholeFile(file, &text));
    return text;
  }
  // Names in the folder that look like temporary files.
  std::vector<std::string> temps() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name.find(".tmp-") != std::string::npos) found.push_back(name);
    }
    return found;
  }
  // Commits {a, b, c} with the given contents and manifest "set.manifest".
  bool commitSet(const std::string& a, const std::string& b, const std::string& c,
                 std::string* error = nullptr) {
    AtomicOutputSet set(path("set.manifest"));
    set.add(path("set.a"), a);
    set.add(path("set.b"), b);
    set.add(path("set.c"), c);
    return set.commit(error);
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, SetIsWrittenWithAManifestThatVerifies) {
  ASSERT_TRUE(commitSet("one\n", "two\n", "three\n"));
  EXPECT_EQ(read(path("set.a")), "one\n");
  EXPECT_EQ(read(path("set.c")), "three\n");
  const std::string manifest = read(path("set.manifest"));
  EXPECT_NE(manifest.find("file\tbytes\tfnv1a64\nset.a\t4\t"), std::string::npos) << manifest;
  std::string error;
  EXPECT_TRUE(verifyOutputSet(path("set.manifest"), &error)) << error;
  EXPECT_TRUE(temps().empty());
  // A file changed behind the manifest's back no longer verifies.
  std::ofstream(path("set.b")) << "other\n";
  EXPECT_FALSE(verifyOutputSet(path("set.manifest"), &error));
  EXPECT_NE(error.find("set.b is not the file"), std::string::npos) << error;
}

// Fault injection: a child commits a second set and is killed (SIGKILL) right after the first
// rename. The first file is new, the others old: the manifest must be gone, so that no reader
// takes the mix for a set. The next commit removes the dead writer's temporary files.
TEST_F(AtomicFileTest, KilledMidSetLeavesNoManifestAndTheNextRunCleansUp) {
  ASSERT_TRUE(commitSet("old a\n", "old b\n", "old c\n"));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setOutputSetRenameHook([](std::size_t renamed) {
      if (renamed == 1) std::raise(SIGKILL);
    });
    commitSet("new a\n", "new b\n", "new c\n");
    std::_Exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_EQ(read(path("set.a")), "new a\n");
  EXPECT_EQ(read(path("set.b")), "old b\n");
  EXPECT_FALSE(fs::exists(path("set.manifest")));
  EXPECT_FALSE(verifyOutputSet(path("set.manifest")));
  EXPECT_EQ(temps().size(), 2u);  // b's and c's, written before the renames began
  ASSERT_TRUE(commitSet("third a\n", "third b\n", "third c\n"));
  EXPECT_TRUE(temps().empty());
  EXPECT_TRUE(verifyOutputSet(path("set.manifest")));
}

// SIGTERM while a set is being committed: the temporary files go, the process still dies of the
// signal.
TEST_F(AtomicFileTest, TerminatedMidSetRemovesItsTemporaryFiles) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setOutputSetRenameHook([](std::size_t renamed) {
      if (renamed == 1) std::raise(SIGTERM);
    });
    commitSet("a\n", "b\n", "c\n");
    std::_Exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(temps().empty());
  EXPECT_FALSE(fs::exists(path("set.manifest")));
}

TEST_F(AtomicFileTest, AFailedFileReplacesNothingAndLeavesNoTemporary) {
  ASSERT_TRUE(commitSet("a\n", "b\n", "c\n"));
  AtomicOutputSet set(path("set.manifest"));
  set.add(path("set.a"), "new\n");
  set.add(path("no-such-folder/x"), "x\n");
  std::string error;
  EXPECT_FALSE(set.commit(&error));
  EXPECT_NE(error.find("no-such-folder/x"), std::string::npos) << error;
  EXPECT_EQ(read(path("set.a")), "a\n");
  EXPECT_TRUE(verifyOutputSet(path("set.manifest")));
  EXPECT_TRUE(temps().empty());
}

TEST_F(AtomicFileTest, ASymbolicLinkIsFollowedAndKept) {
  std::ofstream(path("real.txt")) << "old\n";
  fs::create_symlink("real.txt", path("link.txt"));
  fs::create_symlink(path("missing.txt"), path("dangling.txt"));
  const auto write = [](const std::string& text) {
    return [text](std::ostream& out) { return bool(out << text); };
  };
  ASSERT_TRUE(writeFileAtomically(path("link.txt"), write("new\n")));
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(read(path("real.txt")), "new\n");
  ASSERT_TRUE(writeFileAtomically(path("dangling.txt"), write("made\n")));
  EXPECT_TRUE(fs::is_symlink(path("dangling.txt")));
  EXPECT_EQ(read(path("missing.txt")), "made\n");
  EXPECT_TRUE(temps().empty());
}

TEST_F(AtomicFileTest, AFifoIsWrittenThroughNotReplaced) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read(path("pipe")); });
  ASSERT_TRUE(writeFileAtomically(path("pipe"), [](std::ostream& out) {
    out << "through the pipe\n";
    return true;
  }));
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  struct stat info {};
  ASSERT_EQ(::stat(path("pipe").c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_TRUE(temps().empty());
}

TEST_F(AtomicFileTest, ACharacterDeviceIsWrittenThroughNotReplaced) {
  // A private copy of /dev/null (as root); elsewhere /dev/null itself, which a non-root
  // process could not have replaced anyway.
  std::string device = path("null");
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) device = "/dev/null";
  AtomicOutputSet set(path("set.manifest"));
  set.add(device, "discarded\n");
  set.add(path("set.a"), "kept\n");
  ASSERT_TRUE(set.commit());
  struct stat info {};
  ASSERT_EQ(::stat(device.c_str(), &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(read(path("set.manifest")).find("null"), std::string::npos);  // not in the set
  EXPECT_TRUE(verifyOutputSet(path("set.manifest")));
  EXPECT_TRUE(temps().empty());
}

TEST_F(AtomicFileTest, ADirectoryTargetIsAnError) {
  fs::create_directories(path("folder"));
  std::string error;
  EXPECT_FALSE(writeFileAtomically(
      path("folder"), [](std::ostream& out) { return bool(out << "x"); }, &error));
  EXPECT_NE(error.find("it is a directory"), std::string::npos) << error;
}

}  // namespace
}  // namespace gwb
