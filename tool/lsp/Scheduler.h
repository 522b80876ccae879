//===--- Scheduler.h - When each open file is analysed ----------*- C++ -*-===//
//
// Each open file has a thread of its own (with a large stack, as the parser
// wants) that analyses it one run at a time. An edit waits for a quiet
// moment (the debounce delay) before it starts an analysis, and makes the
// one running for an older text stale: it is cancelled, and its findings
// are never shown. At most N analyses run at once across files: a LibTorch
// parse takes a gigabyte.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_SCHEDULER_H
#define TORCH_TIDY_TOOL_LSP_SCHEDULER_H

#include <utility> // before LLVM's thread.h, which uses std::exchange
#include "llvm/Support/thread.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

class Scheduler {
public:
  /// One analysis of a file; \p Cancelled is set once a newer edit (or the
  /// file's close) makes it stale.
  using Task = std::function<void(const std::string &File,
                                  const std::atomic<bool> &Cancelled)>;

  Scheduler(Task Run, unsigned Parallel, std::chrono::milliseconds Debounce);
  /// Cancels what runs and waits for the threads.
  ~Scheduler();

  /// \p File changed: analyse it once no newer change has come for the
  /// debounce delay, cancelling the analysis running for it.
  void schedule(const std::string &File);
  /// \p File was closed: cancels its analysis; its thread ends.
  void remove(const std::string &File);
  /// Cancels every analysis, for a server about to exit.
  void cancelAll();

private:
  struct Worker;
  void work(Worker &W, std::string File);
  /// Waits for one of the Parallel slots; false when \p Cancelled first.
  bool acquireSlot(const std::atomic<bool> &Cancelled);
  void releaseSlot();
  /// Wakes the analyses waiting for a slot, to see whether they were cancelled.
  void wakeSlotWaiters();

  Task Run;
  std::chrono::milliseconds Debounce;
  std::mutex Lock;
  std::map<std::string, std::unique_ptr<Worker>> Workers;
  std::vector<std::unique_ptr<Worker>> Removed; // threads ending
  std::mutex SlotLock;
  std::condition_variable SlotFreed;
  unsigned FreeSlots;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_SCHEDULER_H
