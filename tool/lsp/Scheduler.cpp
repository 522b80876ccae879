//===--- Scheduler.cpp - When each open file is analysed ------------------===//

#include "Scheduler.h"
#include "CrashContainment.h"
#include "clang/Basic/Stack.h"

namespace torch_tidy::lsp {

using Clock = std::chrono::steady_clock;

/// The stack of an analysis thread: clang's parser and the checks' walks
/// recurse deeply on real code (clang's own driver asks for 8 MiB).
static constexpr unsigned AnalysisStackBytes = 64u << 20;

struct Scheduler::Worker {
  std::mutex Lock;
  std::condition_variable Wake;
  bool Pending = false, Stopped = false;
  Clock::time_point Due;
  /// The flag of the analysis running now, if any.
  std::shared_ptr<std::atomic<bool>> Running;
  llvm::thread Thread;

  /// Under Lock: cancels what runs.
  void cancelRunning() {
    if (Running)
      *Running = true;
  }
};

Scheduler::Scheduler(Task Run, unsigned Parallel,
                     std::chrono::milliseconds Debounce)
    : Run(std::move(Run)), Debounce(Debounce),
      FreeSlots(std::max(1u, Parallel)) {}

Scheduler::~Scheduler() {
  std::vector<std::unique_ptr<Worker>> All;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (auto &Entry : Workers)
      All.push_back(std::move(Entry.second));
    Workers.clear();
    for (auto &W : Removed)
      All.push_back(std::move(W));
    Removed.clear();
  }
  for (auto &W : All) {
    {
      std::lock_guard<std::mutex> Guard(W->Lock);
      W->Stopped = true;
      W->cancelRunning();
    }
    W->Wake.notify_all();
  }
  wakeSlotWaiters();
  for (auto &W : All)
    W->Thread.join();
}

void Scheduler::schedule(const std::string &File) {
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<Worker> &W = Workers[File];
  if (!W) {
    W = std::make_unique<Worker>();
    Worker *Raw = W.get();
    W->Thread = llvm::thread(std::optional<unsigned>(AnalysisStackBytes),
                             [this, Raw, File] { work(*Raw, File); });
  }
  {
    std::lock_guard<std::mutex> WorkerGuard(W->Lock);
    W->Pending = true;
    W->Due = Clock::now() + Debounce;
    W->cancelRunning();
  }
  W->Wake.notify_all();
  wakeSlotWaiters(); // a cancelled analysis may wait for a slot
}

void Scheduler::remove(const std::string &File) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Workers.find(File);
  if (It == Workers.end())
    return;
  std::unique_ptr<Worker> W = std::move(It->second);
  Workers.erase(It);
  {
    std::lock_guard<std::mutex> WorkerGuard(W->Lock);
    W->Stopped = true;
    W->cancelRunning();
  }
  W->Wake.notify_all();
  wakeSlotWaiters();
  // Joined when the scheduler goes: the thread may be in the middle of a
  // preamble build, which cannot be interrupted.
  Removed.push_back(std::move(W));
}

void Scheduler::cancelAll() {
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto &Entry : Workers) {
    std::lock_guard<std::mutex> WorkerGuard(Entry.second->Lock);
    Entry.second->Pending = false;
    Entry.second->cancelRunning();
  }
  wakeSlotWaiters();
}

void Scheduler::wakeSlotWaiters() {
  // Taking the lock first: a waiter is either before its check of the
  // cancellation or asleep, never between the two.
  { std::lock_guard<std::mutex> Guard(SlotLock); }
  SlotFreed.notify_all();
}

bool Scheduler::acquireSlot(const std::atomic<bool> &Cancelled) {
  std::unique_lock<std::mutex> Guard(SlotLock);
  SlotFreed.wait(Guard, [&] { return FreeSlots > 0 || Cancelled; });
  if (Cancelled)
    return false;
  --FreeSlots;
  return true;
}

void Scheduler::releaseSlot() {
  {
    std::lock_guard<std::mutex> Guard(SlotLock);
    ++FreeSlots;
  }
  SlotFreed.notify_one();
}

void Scheduler::work(Worker &W, std::string File) {
  clang::noteBottomOfStack();
  AlternateSignalStack SignalStack;
  std::unique_lock<std::mutex> Guard(W.Lock);
  while (true) {
    W.Wake.wait(Guard, [&] { return W.Stopped || W.Pending; });
    // Debounce: each edit moves Due later.
    while (!W.Stopped && W.Pending && Clock::now() < W.Due)
      W.Wake.wait_until(Guard, W.Due);
    if (W.Stopped)
      return;
    if (!W.Pending)
      continue;
    W.Pending = false;
    auto Cancelled = std::make_shared<std::atomic<bool>>(false);
    W.Running = Cancelled;
    Guard.unlock();
    if (acquireSlot(*Cancelled)) {
      Run(File, *Cancelled);
      releaseSlot();
    }
    Guard.lock();
    W.Running.reset();
  }
}

} // namespace torch_tidy::lsp
