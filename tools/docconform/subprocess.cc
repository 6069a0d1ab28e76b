#include "subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <chrono>

namespace docconform::cli {
namespace {

constexpr std::size_t stderr_keep = 64 << 10;

void close_pipe(int fds[2]) {
  for (int i = 0; i < 2; ++i) {
    if (fds[i] >= 0) close(fds[i]);
    fds[i] = -1;
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::vector<std::string>& environment) {
  ProcessResult result;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Built before fork: the child may only make async-signal-safe calls.
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const bool replaced = std::any_of(environment.begin(), environment.end(), [&](const std::string& ours) {
      return entry.substr(0, entry.find('=') + 1) == std::string_view(ours).substr(0, ours.find('=') + 1);
    });
    if (!replaced) env.push_back(*e);
  }
  for (const auto& e : environment) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);

  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    close_pipe(out_pipe);
    close_pipe(err_pipe);
    result.err = "pipe failed";
    return result;
  }
  const rlim_t memory = static_cast<rlim_t>(limits.memory_mb) << 20;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    if (limits.memory_mb != 0) {
      const rlimit cap{memory, memory};
      setrlimit(RLIMIT_AS, &cap);
    }
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    execvpe(args[0], args.data(), env.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  out_pipe[1] = err_pipe[1] = -1;
  if (pid < 0) {
    close_pipe(out_pipe);
    close_pipe(err_pipe);
    result.err = "fork failed";
    return result;
  }

  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(limits.timeout_s));
  bool timed_out = false;
  bool overflow = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& sink = i == 0 ? result.out : result.err;
      sink.append(buffer, static_cast<std::size_t>(n));
      if (i == 1 && sink.size() > 2 * stderr_keep) sink.erase(0, sink.size() - stderr_keep);
      if (i == 0 && sink.size() > limits.max_output) overflow = true;
    }
    if (overflow) break;
  }
  if (timed_out || overflow) kill(-pid, SIGKILL);
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    result.end = ProcessResult::End::timed_out;
  } else if (overflow) {
    result.end = ProcessResult::End::output_overflow;
  } else if (WIFEXITED(status)) {
    result.end = ProcessResult::End::exited;
    result.exit_code = WEXITSTATUS(status);
  } else {
    result.end = ProcessResult::End::signaled;
    result.signal = WTERMSIG(status);
  }
  if (result.err.size() > stderr_keep) result.err.erase(0, result.err.size() - stderr_keep);
  return result;
}

}  // namespace docconform::cli
