//===--- Driver.h - The torch-tidy command line ---------------------------===//

#ifndef TORCH_TIDY_TOOL_DRIVER_H
#define TORCH_TIDY_TOOL_DRIVER_H

namespace torch_tidy {

/// Runs torch-tidy with clang-tidy's command line plus torch-tidy's additions;
/// returns clang-tidy's exit codes.
int runDriver(int Argc, const char **Argv);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_DRIVER_H
