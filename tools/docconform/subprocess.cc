#include "subprocess.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>

#include "docconform/sha256.h"

namespace docconform::cli {
namespace {

constexpr std::size_t stderr_keep = 64 << 10;

// What the supervisor tells the runner when it is done: the adapter's wait status and time, or
// the step that failed and its errno. Smaller than PIPE_BUF, so written and read whole.
enum class Step : int { none, close_fds, subreaper, fork, pidfd };
struct Report {
  Step failed = Step::none;
  int error = 0;
  int wait_status = 0;
  std::int64_t adapter_ns = 0;  // from its fork to its exit
};

std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

const char* to_string(Step step) {
  switch (step) {
    case Step::none: return "none";
    case Step::close_fds: return "close_range";
    case Step::subreaper: return "prctl(PR_SET_CHILD_SUBREAPER)";
    case Step::fork: return "fork";
    case Step::pidfd: return "pidfd_open";
  }
  return "?";
}

// Everything the supervisor and the adapter need, made before fork: a fork of a multi-threaded
// process may only make async-signal-safe calls (no allocation).
struct Launch {
  std::vector<char*> args;
  std::vector<char*> env;
  rlim_t memory = 0;  // 0 = no cap
  int in = -1;        // read end of the adapter's stdin (batch mode); -1 = /dev/null
  int out = -1;       // write ends of the adapter's stdout and stderr
  int err = -1;
  int report = -1;   // write end: the supervisor's Report
  int control = -1;  // read end: closed by the runner to stop the run (or by its death)
};

// ---- The supervisor: a forked child that never execs, so async-signal-safe calls only -------------

[[noreturn]] void send_report(int fd, Report report) {
  while (write(fd, &report, sizeof report) < 0 && errno == EINTR) {}
  _exit(0);
}

// Closes every descriptor but the standard ones and the launch's: the supervisor lives as long
// as the run, and a copy of another run's pipe held here would delay that run's end of file.
bool keep_only_launch_fds(const Launch& l) {
  int keep[] = {l.in, l.out, l.err, l.report, l.control};
  std::sort(std::begin(keep), std::end(keep));
  unsigned from = 3;
  for (const int fd : keep) {
    if (fd < 0) continue;
    if (static_cast<unsigned>(fd) > from && close_range(from, static_cast<unsigned>(fd) - 1, 0) != 0) return false;
    from = static_cast<unsigned>(fd) + 1;
  }
  return close_range(from, ~0U, 0) == 0;
}

[[noreturn]] void exec_adapter(const Launch& l) {
  setpgid(0, 0);
  struct sigaction default_action{};
  default_action.sa_handler = SIG_DFL;
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ}) sigaction(s, &default_action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (l.memory != 0) {
    const rlimit cap{l.memory, l.memory};
    setrlimit(RLIMIT_AS, &cap);
  }
  const int input = l.in >= 0 ? l.in : open("/dev/null", O_RDONLY);
  if (input >= 0) dup2(input, 0);
  dup2(l.out, 1);
  dup2(l.err, 2);
  execvpe(l.args[0], l.args.data(), l.env.data());
  // The evidence of a command that never started, on the stderr the report shows; written
  // without allocating (this is a child of a threaded process).
  const char* reason = strerrordesc_np(errno);
  for (const char* part : {"docconform: cannot run ", static_cast<const char*>(l.args[0]), ": ", reason != nullptr ? reason : "", "\n"}) {
    if (write(2, part, std::strlen(part)) < 0) break;
  }
  _exit(127);
}

// SIGKILLs every live process whose parent is `self`, found in /proc (orphans a subreaper
// adopted are known nowhere else); returns how many. Only our own children are signalled:
// their pids cannot be reused before we reap them.
int kill_children(pid_t self) {
  const int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) return 0;
  int killed = 0;
  alignas(dirent64) char entries[8192];
  for (;;) {
    const ssize_t n = getdents64(proc, entries, sizeof entries);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
      at += entry->d_reclen;
      pid_t pid = 0;
      const char* c = entry->d_name;
      for (; *c >= '0' && *c <= '9'; ++c) pid = pid * 10 + (*c - '0');
      if (*c != '\0' || pid <= 0 || pid == self) continue;
      char path[32];
      std::size_t len = static_cast<std::size_t>(c - entry->d_name);
      if (len > 20) continue;
      std::memcpy(path, entry->d_name, len);
      std::memcpy(path + len, "/stat", 6);
      const int fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      // "pid (comm) state ppid ...": comm may hold anything, so the fields after its last ')'.
      char stat[160];
      const ssize_t got = read(fd, stat, sizeof stat - 1);
      close(fd);
      if (got <= 0) continue;
      const char* close_paren = nullptr;
      for (ssize_t i = 0; i < got; ++i) {
        if (stat[i] == ')') close_paren = stat + i;
      }
      if (close_paren == nullptr || close_paren + 4 >= stat + got) continue;
      const char state = close_paren[2];
      pid_t parent = 0;
      for (const char* p = close_paren + 4; p < stat + got && *p >= '0' && *p <= '9'; ++p) parent = parent * 10 + (*p - '0');
      if (parent == self && state != 'Z' && state != 'X' && kill(pid, SIGKILL) == 0) ++killed;
    }
  }
  close(proc);
  return killed;
}

// Kills and reaps every process left under the supervisor: its children, then the orphans each
// death hands over, until it has no child at all.
void reap_descendants() {
  const pid_t self = getpid();
  for (;;) {
    int status = 0;
    const pid_t reaped = waitpid(-1, &status, WNOHANG);
    if (reaped > 0 || (reaped < 0 && errno == EINTR)) continue;
    if (reaped < 0) return;  // ECHILD: nothing the run started remains
    if (kill_children(self) > 0) {
      // One of them dies soon: wait for it rather than spin.
      while (waitpid(-1, &status, 0) < 0 && errno == EINTR) {}
    } else {
      // A child /proc did not show yet (adopted during the scan): look again shortly.
      const timespec pause{0, 1'000'000};
      nanosleep(&pause, nullptr);
    }
  }
}

[[noreturn]] void supervise(const Launch& l) {
  // The runner's terminal signals and its death reach the supervisor as the control pipe's end
  // of file, so that it can still clean up instead of leaving the adapter's processes behind.
  struct sigaction ignore{};
  ignore.sa_handler = SIG_IGN;
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaction(s, &ignore, nullptr);
  if (!keep_only_launch_fds(l)) send_report(l.report, {Step::close_fds, errno, 0});
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) send_report(l.report, {Step::subreaper, errno, 0});
  // The adapter's time is taken here, not by the runner: the supervisor's own start and end
  // are no part of it.
  const std::int64_t start = monotonic_ns();
  const pid_t adapter = fork();
  if (adapter == 0) exec_adapter(l);
  if (l.in >= 0) close(l.in);
  close(l.out);
  close(l.err);
  if (adapter < 0) send_report(l.report, {Step::fork, errno, 0});
  // By system call: glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, adapter, 0));
  if (pidfd < 0) {
    const int error = errno;
    kill(-adapter, SIGKILL);
    kill(adapter, SIGKILL);
    reap_descendants();
    send_report(l.report, {Step::pidfd, error, 0});
  }
  pollfd fds[2] = {{pidfd, POLLIN, 0}, {l.control, POLLIN, 0}};
  while (true) {
    if (poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[0].revents != 0) break;      // the adapter ended (a zombie until reaped)
    if (fds[1].revents != 0) {           // stop: the deadline, the output limit, or the runner died
      kill(-adapter, SIGKILL);
      kill(adapter, SIGKILL);
      fds[1].fd = -1;
    }
  }
  const std::int64_t end = monotonic_ns();
  // While the adapter is an unreaped zombie its pid is still the id of its process group.
  kill(-adapter, SIGKILL);
  int status = 0;
  while (waitpid(adapter, &status, 0) < 0 && errno == EINTR) {}
  reap_descendants();
  send_report(l.report, {Step::none, 0, status, end - start});
}

// ---- The runner's side --------------------------------------------------------------------

struct Pipe {
  int read = -1;
  int write = -1;
  ~Pipe() {
    close_read();
    close_write();
  }
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void close_read() {
    if (read >= 0) close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) close(write);
    write = -1;
  }
};

// The launch of argv: pointers into argv and environment, which must outlive it.
Launch make_launch(const std::vector<std::string>& argv, const std::vector<std::string>& environment, std::size_t memory_mb) {
  Launch launch;
  for (const auto& a : argv) launch.args.push_back(const_cast<char*>(a.c_str()));
  launch.args.push_back(nullptr);
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const bool replaced = std::any_of(environment.begin(), environment.end(), [&](const std::string& ours) {
      return entry.substr(0, entry.find('=') + 1) == std::string_view(ours).substr(0, ours.find('=') + 1);
    });
    if (!replaced) launch.env.push_back(*e);
  }
  for (const auto& e : environment) launch.env.push_back(const_cast<char*>(e.c_str()));
  launch.env.push_back(nullptr);
  launch.memory = static_cast<rlim_t>(memory_mb) << 20;
  return launch;
}

// The pipes of a supervised run, the runner's ends: the adapter's stdin (batch mode only), stdout
// and stderr, the supervisor's report and the control pipe whose closing stops the run.
struct RunPipes {
  Pipe in, out, err, report, control;
};

// Forks the supervisor of launch; the supervisor's pid, or -1 with why in error.
pid_t start_supervisor(Launch& launch, RunPipes& pipes, bool with_input, std::string& error) {
  if ((with_input && !pipes.in.open()) || !pipes.out.open() || !pipes.err.open() || !pipes.report.open() ||
      !pipes.control.open()) {
    error = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  launch.in = pipes.in.read;
  launch.out = pipes.out.write;
  launch.err = pipes.err.write;
  launch.report = pipes.report.write;
  launch.control = pipes.control.read;
  const pid_t supervisor = fork();
  if (supervisor == 0) supervise(launch);
  pipes.in.close_read();
  pipes.out.close_write();
  pipes.err.close_write();
  pipes.report.close_write();
  pipes.control.close_read();
  if (supervisor < 0) error = std::string("fork: ") + std::strerror(errno);
  return supervisor;
}

// The supervisor's report decoded into result (end, exit code or signal, the adapter's time);
// false, with why in result.err, when it failed.
bool decode_report(const Report& outcome, std::size_t report_bytes, int supervisor_status, ProcessResult& result) {
  if (report_bytes != sizeof outcome) {
    result.err = "the supervising process ended without a report (wait status " + std::to_string(supervisor_status) + ")";
    return false;
  }
  if (outcome.failed != Step::none) {
    result.err = std::string(to_string(outcome.failed)) + ": " + std::strerror(outcome.error);
    return false;
  }
  result.seconds = static_cast<double>(outcome.adapter_ns) * 1e-9;
  if (WIFEXITED(outcome.wait_status)) {
    result.end = ProcessResult::End::exited;
    result.exit_code = WEXITSTATUS(outcome.wait_status);
  } else {
    result.end = ProcessResult::End::signaled;
    result.signal = WTERMSIG(outcome.wait_status);
  }
  return true;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::vector<std::string>& environment) {
  ProcessResult result;
  Launch launch = make_launch(argv, environment, limits.memory_mb);
  RunPipes pipes;
  Pipe& out = pipes.out;
  Pipe& err = pipes.err;
  Pipe& report = pipes.report;
  Pipe& control = pipes.control;
  const auto start = std::chrono::steady_clock::now();
  const pid_t supervisor = start_supervisor(launch, pipes, false, result.err);
  if (supervisor < 0) return result;

  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(limits.timeout_s));
  bool timed_out = false;
  bool overflow = false;
  const auto stop = [&](bool& why) {
    why = true;
    control.close_write();  // the supervisor kills the adapter and everything it started
  };
  Sha256 hash;
  Report outcome;
  std::size_t report_bytes = 0;
  pollfd fds[3] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}, {report.read, POLLIN, 0}};
  char buffer[65536];
  // The run ends with the supervisor's report, sent once no process of the run remains. Output
  // still in the pipes then is read; a pipe another process still holds is not waited for.
  while (fds[0].fd >= 0 || fds[1].fd >= 0 || fds[2].fd >= 0) {
    int wait_ms = 0;
    if (fds[2].fd >= 0) {
      wait_ms = -1;
      if (!timed_out && !overflow) {
        const auto left = deadline - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero()) {
          stop(timed_out);
          continue;
        }
        wait_ms = static_cast<int>(std::min<long long>(std::chrono::ceil<std::chrono::milliseconds>(left).count(), 1000));
      }
    }
    const int ready = poll(fds, 3, wait_ms);
    if (ready == 0 && fds[2].fd < 0) break;
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fds[i].fd);  // the Pipe's descriptor: forget it there too
        (i == 0 ? out : i == 1 ? err : report).read = -1;
        fds[i].fd = -1;
        continue;
      }
      const auto bytes = static_cast<std::size_t>(n);
      if (i == 0) {
        if (overflow) continue;
        result.out_bytes += bytes;
        if (result.out_bytes > limits.max_output_bytes) {
          stop(overflow);
          continue;
        }
        hash.update(std::string_view(buffer, bytes));
        if (result.out_head.size() < limits.kept_output_bytes) {
          result.out_head.append(buffer, std::min(bytes, limits.kept_output_bytes - result.out_head.size()));
        }
      } else if (i == 1) {
        result.err.append(buffer, bytes);
        if (result.err.size() > 2 * stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);
      } else {
        const std::size_t take = std::min(bytes, sizeof outcome - report_bytes);
        std::memcpy(reinterpret_cast<char*>(&outcome) + report_bytes, buffer, take);
        report_bytes += take;
      }
    }
  }
  int supervisor_status = 0;
  while (waitpid(supervisor, &supervisor_status, 0) < 0 && errno == EINTR) {}
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.err.size() > stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);

  if (!decode_report(outcome, report_bytes, supervisor_status, result)) return result;
  if (timed_out) result.end = ProcessResult::End::timed_out;
  if (overflow) result.end = ProcessResult::End::output_overflow;
  if (!overflow) result.out_sha256 = hash.final_hex();
  return result;
}

// ---- Batch mode ----------------------------------------------------------------------------

namespace {

// A frame (conformance/SPEC.md section 2, "Batch mode"): `frame <status> <out> <err>` LF, the
// stdout bytes, the stderr bytes, `end` LF.
constexpr std::string_view frame_word = "frame ";
constexpr std::string_view frame_end = "end\n";
constexpr std::size_t frame_header_max = 80;  // longer than any header of 64-bit lengths

// Bytes for a message: printable ASCII kept, the rest as \xNN, at most 40 of them.
std::string shown(std::string_view bytes) {
  std::string text;
  for (const unsigned char c : bytes.substr(0, 40)) {
    if (c >= 0x20 && c < 0x7F) {
      text += static_cast<char>(c);
    } else {
      const char* digits = "0123456789abcdef";
      text += "\\x";
      text += digits[c >> 4];
      text += digits[c & 15];
    }
  }
  return text + (bytes.size() > 40 ? "..." : "");
}

bool parse_decimal(std::string_view text, std::uint64_t& value) {
  if (text.empty() || text.size() > 19 || (text.size() > 1 && text[0] == '0')) return false;
  value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

// Writes a request whole; false when the process no longer reads (EPIPE, without the SIGPIPE
// that would end the runner: it is blocked on this thread and a pending one is taken back).
bool write_request(int fd, std::string_view request) {
  sigset_t pipe_signal;
  sigset_t before;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &before);
  bool ok = true;
  while (!request.empty()) {
    const ssize_t n = write(fd, request.data(), request.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      if (errno == EPIPE) {
        const timespec none{0, 0};
        while (sigtimedwait(&pipe_signal, nullptr, &none) < 0 && errno == EINTR) {}
      }
      break;
    }
    request.remove_prefix(static_cast<std::size_t>(n));
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return ok;
}

}  // namespace

struct BatchProcess::Running {
  Launch launch;
  RunPipes pipes;
  pid_t supervisor = -1;
  std::string pending;  // stdout read past the last frame: where the next header is due
  std::string stray_err;  // stderr of the process itself (outside frames), its last 64 KiB
  Report report;
  std::size_t report_bytes = 0;
};

BatchProcess::BatchProcess(std::vector<std::string> argv, std::size_t memory_mb, std::chrono::milliseconds exit_grace)
    : argv_(std::move(argv)), memory_mb_(memory_mb), exit_grace_(exit_grace) {}

BatchProcess::~BatchProcess() { stop(); }

void BatchProcess::stop() { end_running(exit_grace_); }

// Closes the process's stdin and, after at most grace for it to exit by itself, kills it and
// everything it started; collects its report and the rest of its stderr. How it ended ("exited
// N", "ended by signal S"), "" when unknown.
std::string BatchProcess::end_running(std::chrono::milliseconds grace) {
  if (!running_) return "";
  Running& r = *running_;
  r.pipes.in.close_write();
  const auto kill_at = std::chrono::steady_clock::now() + grace;
  bool killing = false;
  pollfd fds[3] = {{r.pipes.out.read, POLLIN, 0}, {r.pipes.err.read, POLLIN, 0}, {r.pipes.report.read, POLLIN, 0}};
  char buffer[65536];
  while (fds[2].fd >= 0) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(kill_at - std::chrono::steady_clock::now());
    if (!killing && left.count() <= 0) {
      r.pipes.control.close_write();  // the supervisor kills the process and everything it started
      killing = true;
    }
    const int ready = poll(fds, 3, killing ? -1 : static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;  // the Pipe closes it
      } else if (i == 1) {
        r.stray_err.append(buffer, static_cast<std::size_t>(n));
        if (r.stray_err.size() > 2 * stderr_keep) r.stray_err.erase(0, r.stray_err.size() - stderr_keep);
      } else if (i == 2) {
        const std::size_t take = std::min(static_cast<std::size_t>(n), sizeof r.report - r.report_bytes);
        std::memcpy(reinterpret_cast<char*>(&r.report) + r.report_bytes, buffer, take);
        r.report_bytes += take;
      }
    }
  }
  int status = 0;
  while (waitpid(r.supervisor, &status, 0) < 0 && errno == EINTR) {}
  ProcessResult ended;
  std::string how;
  if (decode_report(r.report, r.report_bytes, status, ended)) {
    how = ended.end == ProcessResult::End::exited ? "exited " + std::to_string(ended.exit_code)
                                                  : "ended by signal " + std::to_string(ended.signal);
  }
  last_stray_err_ = std::move(r.stray_err);
  running_.reset();
  return how;
}

ProcessResult BatchProcess::run(const std::string& input, const ProcessLimits& limits) {
  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  if (!running_) {
    running_ = std::make_unique<Running>();
    running_->launch = make_launch(argv_, {}, memory_mb_);
    running_->supervisor = start_supervisor(running_->launch, running_->pipes, true, result.err);
    if (running_->supervisor < 0) {
      running_.reset();
      return result;  // spawn_failed
    }
  }
  Running& r = *running_;
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(limits.timeout_s));
  write_request(r.pipes.in.write, input + "\n");  // a process that reads no more shows below

  // The frame is read as it arrives: header, stdout (hashed, its head kept), stderr, end.
  enum class Part { header, out, err, end } part = Part::header;
  std::uint64_t left = 0;  // of the current part
  std::uint64_t err_bytes = 0;
  Sha256 hash;
  std::string failure;
  bool out_open = true;
  // Ends the input with the process: failure set, or the timeout or the output limit.
  const auto end_process = [&](ProcessResult::End end, std::string why) {
    result.end = end;
    result.failure = std::move(why);
    // How the process ended tells something only when it ended by itself (its stdout closed).
    const std::string how = end_running(std::chrono::milliseconds(0));
    if (!out_open && !how.empty()) result.failure += " (the process " + how + ")";
    result.err += last_stray_err_;
    if (result.err.size() > stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  // Takes what the frame needs from r.pending; true when the frame is complete.
  const auto consume = [&]() -> bool {
    while (!r.pending.empty() || part == Part::end) {
      if (part == Part::header) {
        const std::size_t line_end = r.pending.find('\n');
        if (line_end == std::string::npos) {
          if (r.pending.size() > frame_header_max || std::string_view(r.pending).substr(0, frame_word.size()) != frame_word.substr(0, std::min(r.pending.size(), frame_word.size()))) {
            failure = "bytes where a frame header is due: \"" + shown(r.pending) + "\"";
          }
          return false;
        }
        const std::string_view line = std::string_view(r.pending).substr(0, line_end);
        std::uint64_t values[3] = {0, 0, 0};
        bool ok = line.size() <= frame_header_max && line.substr(0, frame_word.size()) == frame_word;
        std::string_view rest = ok ? line.substr(frame_word.size()) : std::string_view();
        for (int i = 0; ok && i < 3; ++i) {
          const std::size_t space = rest.find(' ');
          ok = (space == std::string_view::npos) == (i == 2) && parse_decimal(rest.substr(0, space), values[i]);
          rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
        if (!ok || values[0] > 255) {
          failure = "not a frame header: \"" + shown(line) + "\"";
          return false;
        }
        r.pending.erase(0, line_end + 1);
        result.exit_code = static_cast<int>(values[0]);
        result.out_bytes = values[1];
        err_bytes = values[2];
        if (result.out_bytes > limits.max_output_bytes) return false;  // the caller ends it: the output limit
        part = Part::out;
        left = result.out_bytes;
      } else if (part == Part::out || part == Part::err) {
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(left, r.pending.size()));
        const std::string_view piece = std::string_view(r.pending).substr(0, take);
        if (part == Part::out) {
          hash.update(piece);
          if (result.out_head.size() < limits.kept_output_bytes) {
            result.out_head.append(piece.substr(0, limits.kept_output_bytes - result.out_head.size()));
          }
        } else {
          result.err.append(piece);
          if (result.err.size() > 2 * stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);
        }
        r.pending.erase(0, take);
        left -= take;
        if (left == 0) {
          part = part == Part::out ? Part::err : Part::end;
          left = err_bytes;
        }
      } else {
        if (r.pending.size() < frame_end.size()) {
          if (std::string_view(frame_end).substr(0, r.pending.size()) != r.pending) {
            failure = "the frame's lengths are wrong: \"" + shown(r.pending) + "\" where `end` is due";
          }
          return false;
        }
        if (std::string_view(r.pending).substr(0, frame_end.size()) != frame_end) {
          failure = "the frame's lengths are wrong: \"" + shown(r.pending) + "\" where `end` is due";
          return false;
        }
        r.pending.erase(0, frame_end.size());
        return true;
      }
    }
    return false;
  };

  pollfd fds[3] = {{r.pipes.out.read, POLLIN, 0}, {r.pipes.err.read, POLLIN, 0}, {r.pipes.report.read, POLLIN, 0}};
  char buffer[65536];
  for (bool done = consume();; done = consume()) {
    if (done) break;
    if (!failure.empty()) return end_process(ProcessResult::End::protocol_failure, failure);
    if (result.out_bytes > limits.max_output_bytes) {
      result.out_bytes = limits.max_output_bytes + 1;
      return end_process(ProcessResult::End::output_overflow, "");
    }
    if (!out_open) {
      return end_process(ProcessResult::End::protocol_failure,
                         r.pending.empty() && part == Part::header ? "the process ended before its frame" : "the process ended inside its frame");
    }
    const auto left_time = deadline - std::chrono::steady_clock::now();
    if (left_time <= std::chrono::steady_clock::duration::zero()) return end_process(ProcessResult::End::timed_out, "");
    const int wait_ms = static_cast<int>(std::min<long long>(std::chrono::ceil<std::chrono::milliseconds>(left_time).count(), 1000));
    if (poll(fds, 3, wait_ms) < 0 && errno != EINTR) return end_process(ProcessResult::End::protocol_failure, std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        if (i == 0) out_open = false;
        continue;
      }
      const auto bytes = static_cast<std::size_t>(n);
      if (i == 0) {
        r.pending.append(buffer, bytes);
      } else if (i == 1) {
        r.stray_err.append(buffer, bytes);
        if (r.stray_err.size() > 2 * stderr_keep) r.stray_err.erase(0, r.stray_err.size() - stderr_keep);
      } else {
        const std::size_t take = std::min(bytes, sizeof r.report - r.report_bytes);
        std::memcpy(reinterpret_cast<char*>(&r.report) + r.report_bytes, buffer, take);
        r.report_bytes += take;
      }
    }
  }
  if (result.err.size() > stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);
  r.stray_err.clear();  // stderr outside frames is shown only with an input that ends the process
  result.end = ProcessResult::End::exited;
  result.out_sha256 = hash.final_hex();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string first_output_line(const std::vector<std::string>& argv) {
  const ProcessResult p = run_process(argv, ProcessLimits{10, 0, 1 << 16, 1 << 16});
  if (p.end != ProcessResult::End::exited || p.exit_code != 0) return "";
  std::string line = p.out_head.substr(0, p.out_head.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace docconform::cli
