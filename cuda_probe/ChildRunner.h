//===--- ChildRunner.h - Runs commands in isolated children -----*- C++ -*-===//
//
// Each replay runs in a fresh process (fork + exec, never fork alone: CUDA
// does not survive a fork after initialisation), so a crash, abort, hang or
// CUDA error in one plan cannot take the run down.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CUDA_PROBE_CHILDRUNNER_H
#define TORCH_TIDY_CUDA_PROBE_CHILDRUNNER_H

#include <string>
#include <vector>

namespace torch_tidy::probe {

struct ChildResult {
  bool TimedOut = false;
  int ExitStatus = -1; ///< -1 when killed by a signal.
  int Signal = 0;
  std::string Stdout;
  std::string Stderr;
};

/// Runs Program with each argument list, at most \p Jobs at a time, killing
/// any that runs longer than \p TimeoutSeconds. Results are in input order.
std::vector<ChildResult>
runChildren(const std::string &Program,
            const std::vector<std::vector<std::string>> &ArgLists, int Jobs,
            double TimeoutSeconds);

} // namespace torch_tidy::probe

#endif // TORCH_TIDY_CUDA_PROBE_CHILDRUNNER_H
