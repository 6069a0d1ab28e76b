// OutputFile: an output is complete or not there at all, whatever fails and whenever a signal
// comes; every failure is an io error naming the output.
#include "docconform/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "docconform/error.h"
#include "tests/common/signalled_child.h"

namespace docconform {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("docconform-output-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  static void put(const std::string& file, const std::string& text, mode_t mode) {
    std::ofstream(file, std::ios::binary) << text;
    ::chmod(file.c_str(), mode);
  }
  static mode_t mode_of(const std::string& file) {
    struct stat st {};
    ::lstat(file.c_str(), &st);
    return st.st_mode & 07777;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_)) found.push_back(entry.path().filename().string());
    std::sort(found.begin(), found.end());
    return found;
  }
  fs::path dir_;
};

// Runs body in a child process and returns its wait status (body's return value is the exit code).
template <class Body>
int in_child(Body body) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(body());
  int status = 0;
  ::waitpid(child, &status, 0);
  return status;
}

TEST_F(OutputFileTest, NewFileAppearsOnlyAtCommitWithTheUmasksMode) {
  const mode_t old_mask = ::umask(027);
  {
    OutputFile out(path("new.txt"));
    out.write("hello");
    EXPECT_TRUE(out.replaces_target());
    EXPECT_FALSE(fs::exists(path("new.txt")));
    EXPECT_EQ(names(), std::vector<std::string>{});  // the temporary file has no name yet
    out.commit();
  }
  ::umask(old_mask);
  EXPECT_EQ(read(path("new.txt")), "hello");
  EXPECT_EQ(mode_of(path("new.txt")), 0640u);
  EXPECT_EQ(names(), std::vector<std::string>{"new.txt"});
}

// ACLs and security labels are extended attributes too; a user.* one stands for them.
TEST_F(OutputFileTest, ReplacesAnExistingFileKeepingItsExtendedAttributes) {
  put(path("t.bin"), "old", 0644);
  const std::string kept = "kept across the replacement";
  if (::setxattr(path("t.bin").c_str(), "user.docconform.test", kept.data(), kept.size(), 0) != 0) {
    GTEST_SKIP() << "no user extended attributes here: " << std::strerror(errno);
  }
  write_output_file(path("t.bin"), "new");
  char value[64] = {};
  const ssize_t got = ::getxattr(path("t.bin").c_str(), "user.docconform.test", value, sizeof value);
  ASSERT_GE(got, 0) << std::strerror(errno);
  EXPECT_EQ(std::string(value, static_cast<std::size_t>(got)), kept);
  EXPECT_EQ(read(path("t.bin")), "new");
}

TEST_F(OutputFileTest, ReplacesAnExistingFileKeepingItsMode) {
  put(path("t.bin"), "old", 0600);
  {
    OutputFile out(path("t.bin"));
    out.write("new contents");
    EXPECT_EQ(read(path("t.bin")), "old");
    out.commit();
  }
  EXPECT_EQ(read(path("t.bin")), "new contents");
  EXPECT_EQ(mode_of(path("t.bin")), 0600u);
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
}

TEST_F(OutputFileTest, WithoutCommitTheOldFileStaysAndNoTemporaryRemains) {
  put(path("t.bin"), "old", 0644);
  {
    OutputFile out(path("t.bin"));
    out.write(std::string(1 << 20, 'x'));
  }
  EXPECT_EQ(read(path("t.bin")), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
}

// Each temporary file is a file of its own, readable before commit, and named only then.
TEST_F(OutputFileTest, TemporaryFilesAreNamedOnlyAtCommit) {
  OutputFile a(path("t.bin"));
  OutputFile b(path("t.bin"));
  a.write("first");
  b.write("second");
  EXPECT_NE(a.written_path(), b.written_path());
  EXPECT_EQ(read(b.written_path()), "second");
  EXPECT_EQ(names(), std::vector<std::string>{});
  a.commit();
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
  b.commit();
  EXPECT_EQ(read(path("t.bin")), "second");
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
}

TEST_F(OutputFileTest, FullDeviceIsAnIoErrorNamingTheOutput) {
  OutputFile out("/dev/full");
  EXPECT_FALSE(out.replaces_target());
  try {
    out.write("x");
    ADD_FAILURE() << "a write to /dev/full succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_STREQ(e.what(), "/dev/full: io error: write failed: No space left on device");
  }
  EXPECT_THROW(out.commit(), Error);  // never reported complete
}

// A null device of the test's own where the process may make one: a writer that replaced it
// must not take the system's /dev/null with it.
std::string null_device(const std::string& where) {
  return ::mknod(where.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0 ? where : "/dev/null";
}

TEST_F(OutputFileTest, DeviceIsWrittenDirectlyNeverReplaced) {
  const std::string device = null_device(path("null"));
  {
    OutputFile out(device);
    EXPECT_FALSE(out.replaces_target());
    out.write("discarded");
    out.commit();
  }
  struct stat st {};
  ASSERT_EQ(::stat(device.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(OutputFileTest, FifoIsWrittenDirectly) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read(path("pipe")); });
  {
    OutputFile out(path("pipe"));
    EXPECT_FALSE(out.replaces_target());
    out.write("through the pipe");
    out.commit();
  }
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(path("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(names(), std::vector<std::string>{"pipe"});
}

TEST_F(OutputFileTest, RegularFileOnlyRefusesOthersBeforeOpeningThem) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);  // opening it would wait for a reader
  for (const std::string& target : {path("pipe"), null_device(path("null")), std::string("-")}) {
    try {
      OutputFile out(target, OutputFile::Accept::regular_file);
      ADD_FAILURE() << target;
    } catch (const Error& e) {
      EXPECT_EQ(e.message(), "not a regular file: not replaced") << target;
    }
  }
}

TEST_F(OutputFileTest, SymbolicLinkIsWrittenThroughAndStays) {
  fs::create_directories(dir_ / "real");
  put(path("real/file"), "old", 0640);
  fs::create_symlink("real/file", dir_ / "link");
  write_output_file(path("link"), "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(read(path("real/file")), "new");
  EXPECT_EQ(mode_of(path("real/file")), 0640u);
  EXPECT_EQ(names(), (std::vector<std::string>{"link", "real"}));
}

TEST_F(OutputFileTest, SymbolicLinkToNothingIsRefused) {
  fs::create_symlink(dir_ / "missing", dir_ / "link");
  try {
    OutputFile out(path("link"));
    ADD_FAILURE() << "a dangling link was followed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_EQ(e.context().file, path("link"));
  }
  EXPECT_EQ(names(), std::vector<std::string>{"link"});
}

TEST_F(OutputFileTest, DirectoryIsRefused) {
  fs::create_directories(dir_ / "sub");
  EXPECT_THROW(OutputFile(path("sub")), Error);
}

// In a directory the process may not write (as root, the child drops to nobody).
TEST_F(OutputFileTest, ReadOnlyDirectoryIsAnErrorAndLeavesTheFile) {
  put(path("t.bin"), "old", 0666);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  const std::string target = path("t.bin");
  const int status = in_child([&] {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return 3;
    try {
      write_output_file(target, "new");
    } catch (const Error& e) {
      const std::string text = e.what();
      return e.kind() == ErrorKind::io && text.starts_with(target + ": io error: cannot create a temporary file") &&
                     text.ends_with("Permission denied")
                 ? 0
                 : 2;
    }
    return 1;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read(path("t.bin")), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
}

// A write that fails half way (here the file-size limit, EFBIG; a full disk fails the same way).
TEST_F(OutputFileTest, FailedWriteLeavesTheOldFileAndNoTemporary) {
  put(path("t.bin"), "old", 0644);
  const std::string target = path("t.bin");
  const int status = in_child([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1 << 20, 1 << 20};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      OutputFile out(target);
      out.write(std::string(3 << 20, 'x'));
      out.commit();
    } catch (const Error& e) {
      return std::string(e.what()) == target + ": io error: write failed: File too large" ? 0 : 2;
    }
    return 1;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read(path("t.bin")), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"t.bin"});
}

// A child writing a large output is killed half way: the old file is intact, no temporary is left.
void expect_signal_leaves_old_file(const fs::path& dir, const std::string& target, int signal) {
  test::signal_child_when_ready(signal, [&](const std::function<void()>& ready) {
    OutputFile out(target);
    const std::string block(1 << 20, 'x');
    out.write(block);
    ready();
    for (;;) out.write(block);
  });
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) found.push_back(entry.path().filename().string());
  EXPECT_EQ(found, std::vector<std::string>{"t.bin"});
}

TEST_F(OutputFileTest, SigtermMidWriteLeavesTheOldFileAndNoTemporary) {
  put(path("t.bin"), "old", 0644);
  expect_signal_leaves_old_file(dir_, path("t.bin"), SIGTERM);
  EXPECT_EQ(read(path("t.bin")), "old");
}

// No handler runs on SIGKILL (nor when the OOM killer strikes): the temporary file has no name
// to leave behind.
TEST_F(OutputFileTest, SigkillMidWriteLeavesTheOldFileAndNoTemporary) {
  put(path("t.bin"), "old", 0644);
  expect_signal_leaves_old_file(dir_, path("t.bin"), SIGKILL);
  EXPECT_EQ(read(path("t.bin")), "old");
}

TEST_F(OutputFileTest, SigintMidWriteLeavesTheOldFileAndNoTemporary) {
  put(path("t.bin"), "old", 0644);
  expect_signal_leaves_old_file(dir_, path("t.bin"), SIGINT);
  EXPECT_EQ(read(path("t.bin")), "old");
}

TEST_F(OutputFileTest, RandomAccessWritesAndReservedSpaceGivenBack) {
  {
    OutputFile out(path("r.bin"));
    out.reserve(1 << 20);
    out.write("....ABCD");
    out.write_at("xy", 2, 1);
    out.commit();
  }
  EXPECT_EQ(read(path("r.bin")), ".xy.ABCD");
  EXPECT_EQ(fs::file_size(path("r.bin")), 8u);
}

TEST_F(OutputFileTest, ATemporaryFileGoesBackByTruncation) {
  put(path("t.bin"), "old", 0644);
  {
    OutputFile out(path("t.bin"));
    out.write("header,");
    const std::uint64_t mark = out.size();
    out.write("taken back");
    out.truncate(mark);
    EXPECT_EQ(out.size(), mark);
    out.write("kept");
    EXPECT_THROW(out.truncate(out.size() + 1), Error);
    EXPECT_EQ(read(path("t.bin")), "old");
    out.commit();
  }
  EXPECT_EQ(read(path("t.bin")), "header,kept");
  OutputFile device("/dev/null");
  device.write("x");
  EXPECT_THROW(device.truncate(0), Error);  // never a file given directly
}

TEST_F(OutputFileTest, StreamErrorsThrowTheError) {
  OutputFile out("/dev/full");
  try {
    out.stream() << std::string(100 << 10, 'x');
    ADD_FAILURE() << "the stream hid a failed write";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().file, "/dev/full");
  }
}

TEST_F(OutputFileTest, StandardOutputIsWrittenDirectlyAndNamed) {
  const int status = in_child([] {
    const int full = ::open("/dev/full", O_WRONLY);
    if (full < 0 || ::dup2(full, STDOUT_FILENO) < 0) return 3;
    try {
      OutputFile out("-");
      if (out.replaces_target()) return 4;
      out.write("x");
    } catch (const Error& e) {
      return std::string(e.what()) == "standard output: io error: write failed: No space left on device" ? 0 : 2;
    }
    return 1;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(OutputFileTest, TheFileOnStandardOutputIsNotReplaced) {
  put(path("out.txt"), "", 0644);
  const std::string target = path("out.txt");
  const int status = in_child([&] {
    const int fd = ::open(target.c_str(), O_WRONLY);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) return 3;
    OutputFile out(target);
    if (out.replaces_target()) return 1;
    out.write("direct");
    out.commit();
    return 0;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read(target), "direct");
}

}  // namespace
}  // namespace docconform
