//===--- CrashContainment.cpp - An analysis that crashes costs its file ---===//

#include "CrashContainment.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace torch_tidy::lsp {

void enableCrashContainment() {
  llvm::CrashRecoveryContext::Enable();
#ifndef _WIN32
  // LLVM's handlers run on the faulting stack, which a stack overflow has
  // used up: run them on the thread's alternate stack instead.
  for (int Signal : {SIGSEGV, SIGBUS}) {
    struct sigaction Action;
    if (sigaction(Signal, nullptr, &Action) == 0) {
      Action.sa_flags |= SA_ONSTACK;
      sigaction(Signal, &Action, nullptr);
    }
  }
#endif
}

AlternateSignalStack::AlternateSignalStack() {
#ifndef _WIN32
  // Enough for LLVM's handler, which prints a stack trace.
  constexpr size_t Size = 1 << 20;
  Memory = std::malloc(Size);
  if (!Memory)
    return;
  stack_t Stack;
  Stack.ss_sp = Memory;
  Stack.ss_size = Size;
  Stack.ss_flags = 0;
  sigaltstack(&Stack, nullptr);
#endif
}

AlternateSignalStack::~AlternateSignalStack() {
#ifndef _WIN32
  if (!Memory)
    return;
  stack_t Disabled;
  std::memset(&Disabled, 0, sizeof(Disabled));
  Disabled.ss_flags = SS_DISABLE;
  sigaltstack(&Disabled, nullptr);
  std::free(Memory);
#endif
}

std::optional<std::string> runContained(llvm::function_ref<void()> Fn) {
  llvm::CrashRecoveryContext Context;
  // Print the stack dump to the server's log, as a crashing compiler does.
  Context.DumpStackAndCleanupOnFailure = true;
  if (Context.RunSafely(Fn))
    return std::nullopt;
#ifndef _WIN32
  if (Context.RetCode > 128)
    if (const char *Name = strsignal(Context.RetCode - 128))
      return std::string(Name);
#endif
  return "exit status " + std::to_string(Context.RetCode);
}

} // namespace torch_tidy::lsp
