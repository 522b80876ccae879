//===--- CrashContainment.h - An analysis that crashes costs its file -*- C++ -*-===//
//
// The server analyses in its own process, so a crash in the parser or a
// check would take every open file down with it. Each analysis runs inside
// llvm::CrashRecoveryContext instead: a signal (a segmentation fault, an
// abort, a trap), LLVM's fatal errors and a stack overflow (handled on an
// alternate signal stack) return to the server, which reports the crash on
// the file and goes on. The memory the analysis held is not given back.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_CRASHCONTAINMENT_H
#define TORCH_TIDY_TOOL_LSP_CRASHCONTAINMENT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>

namespace torch_tidy::lsp {

/// Installs the handlers; once, before the first analysis.
void enableCrashContainment();

/// For as long as it lives, the constructing thread's alternate signal
/// stack, on which a stack overflow can be handled: one per analysis thread.
class AlternateSignalStack {
public:
  AlternateSignalStack();
  ~AlternateSignalStack();
  AlternateSignalStack(const AlternateSignalStack &) = delete;
  AlternateSignalStack &operator=(const AlternateSignalStack &) = delete;

private:
  void *Memory = nullptr;
};

/// Runs \p Fn; when it crashes, says how ("Segmentation fault", ...).
std::optional<std::string> runContained(llvm::function_ref<void()> Fn);

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_CRASHCONTAINMENT_H
