// A forked child with the signal cleanup installed, ended by a signal once it holds something to
// lose: `work` calls ready() then, and does not return. The child's end by that signal is checked.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "docconform/output_file.h"

namespace docconform::test {

inline void signal_child_when_ready(int signal, const std::function<void(const std::function<void()>& ready)>& work) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    install_output_cleanup();
    work([&] {
      if (::write(ready[1], "r", 1) != 1) ::_exit(2);
    });
    ::_exit(3);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ::kill(child, signal);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), signal);
}

}  // namespace docconform::test
