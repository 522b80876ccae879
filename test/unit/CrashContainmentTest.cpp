//===--- CrashContainmentTest.cpp - A crashing analysis returns -----------===//
//
// What the language server relies on to survive an analysis that crashes:
// each kind of crash, on a thread like the server's analysis threads, comes
// back as a description, and the thread (and the process) go on.
//
//===----------------------------------------------------------------------===//

#include "CrashContainment.h"
#include "llvm/Support/ErrorHandling.h"
#include <utility> // before LLVM's thread.h, which uses std::exchange
#include "llvm/Support/thread.h"
#include <csignal>
#include <cstdlib>
#include <gtest/gtest.h>

namespace torch_tidy::lsp {
namespace {

/// Runs \p Fn contained, on a thread with the given stack and an alternate
/// signal stack, as the scheduler's threads are.
std::optional<std::string> onAnalysisThread(void (*Fn)(),
                                            unsigned StackBytes = 8 << 20) {
  enableCrashContainment();
  std::optional<std::string> Crash;
  llvm::thread Thread(std::optional<unsigned>(StackBytes), [&] {
    AlternateSignalStack SignalStack;
    Crash = runContained(Fn);
  });
  Thread.join();
  return Crash;
}

int Sink;

/// Not a tail call: each frame stays on the stack.
int recurse(int Depth) {
  volatile char Frame[512];
  Frame[0] = static_cast<char>(Depth);
  return recurse(Depth + 1) + Frame[0];
}

TEST(CrashContainment, NothingToContain) {
  EXPECT_EQ(onAnalysisThread([] { Sink = 1; }), std::nullopt);
}

TEST(CrashContainment, ASegmentationFault) {
  // Raised, not a null dereference, which UBSan would report first (a real
  // fault is the stack overflow below).
  EXPECT_EQ(onAnalysisThread([] { std::raise(SIGSEGV); }), "Segmentation fault");
}

TEST(CrashContainment, AnAbort) {
  EXPECT_EQ(onAnalysisThread([] { std::abort(); }), "Aborted");
}

TEST(CrashContainment, AFatalErrorOfLLVM) {
  std::optional<std::string> Crash = onAnalysisThread(
      [] { llvm::report_fatal_error("a fatal error in an analysis"); });
  // LLVM aborts on a fatal error (after printing it).
  EXPECT_EQ(Crash, "Aborted");
}

TEST(CrashContainment, AStackOverflow) {
  std::optional<std::string> Crash =
      onAnalysisThread([] { Sink = recurse(0); }, 1 << 20);
  EXPECT_EQ(Crash, "Segmentation fault");
}

TEST(CrashContainment, TheThreadGoesOnAfterACrash) {
  enableCrashContainment();
  std::optional<std::string> First, Second;
  llvm::thread Thread(std::optional<unsigned>(8 << 20), [&] {
    AlternateSignalStack SignalStack;
    First = runContained([] { std::abort(); });
    Second = runContained([] { Sink = 2; });
  });
  Thread.join();
  EXPECT_TRUE(First.has_value());
  EXPECT_EQ(Second, std::nullopt);
}

} // namespace
} // namespace torch_tidy::lsp
