// SIGBUS inside a mapped view means the file shrank under it (another process truncated it).
// The handler replaces the rest of that view with zero-filled pages, so the faulting read
// completes, and sets the view's flag for its reader to check.
#include "docconform/truncation_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>

namespace docconform {
namespace {

// One slot per live view (a PDF source has at most one, an XLSX load one for the whole file). Read
// by the handler, so only lock-free atomics; begin != 0 marks a slot in use and is written last.
struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<std::atomic<bool>*> truncated{nullptr};
};
constexpr std::size_t slot_count = 1024;
Slot slots[slot_count];
std::uintptr_t page_bytes = 4096;
struct sigaction previous {};

void pass_on(int signal, siginfo_t* info, void* context) {
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler == SIG_DFL) {
    ::signal(SIGBUS, SIG_DFL);  // returning re-runs the faulting access, which now kills as it would have
  } else if (previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
  }
}

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& slot : slots) {
    const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= slot.end.load(std::memory_order_acquire)) continue;
    const std::uintptr_t from = address & ~(page_bytes - 1);
    const std::uintptr_t to = (slot.end.load(std::memory_order_acquire) + page_bytes - 1) & ~(page_bytes - 1);
    void* zeros = ::mmap(reinterpret_cast<void*>(from), to - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    if (std::atomic<bool>* flag = slot.truncated.load(std::memory_order_acquire)) flag->store(true, std::memory_order_release);
    return;
  }
  pass_on(signal, info, context);
}

}  // namespace

int watch_mapping(const void* view, std::size_t length, std::atomic<bool>* truncated) {
  for (std::size_t i = 0; i < slot_count; ++i) {
    bool expected = false;
    if (!slots[i].taken.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
    slots[i].end.store(reinterpret_cast<std::uintptr_t>(view) + length, std::memory_order_release);
    slots[i].truncated.store(truncated, std::memory_order_release);
    slots[i].begin.store(reinterpret_cast<std::uintptr_t>(view), std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void unwatch_mapping(int slot) {
  if (slot < 0) return;
  slots[slot].begin.store(0, std::memory_order_release);
  slots[slot].taken.store(false, std::memory_order_release);
}

void install_truncation_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    page_bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &previous);
  });
}

}  // namespace docconform
