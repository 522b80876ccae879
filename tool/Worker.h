//===--- Worker.h - Each file analysed in a process of its own ------------===//
//
// The driver runs itself once per file ("torch-tidy --worker-file=F
// --worker-output=O <the user's arguments>") so that a crash, an abort or a
// stack overflow while analysing one file costs that file only: the run goes
// on and the file gets a torch-tidy-crash finding. A process per file also
// returns all of a file's memory (a LibTorch AST is ~1 GB) before the next.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_WORKER_H
#define TORCH_TIDY_TOOL_WORKER_H

#include "CrossFile.h"
#include "Finding.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

class WorkerLauncher {
public:
  /// \p Executable is torch-tidy itself; \p Arguments the user's arguments
  /// (without argv[0]), passed on unchanged.
  WorkerLauncher(std::string Executable, std::vector<std::string> Arguments)
      : Executable(std::move(Executable)), Arguments(std::move(Arguments)) {}

  /// The findings of \p File, or its torch-tidy-crash finding; and what it
  /// leaves for the other files.
  std::vector<Finding> analyze(const std::string &File, SourceIndex &Index,
                               CrossFileFacts &CrossFile) const;

private:
  std::string Executable;
  std::vector<std::string> Arguments;
};

/// In a worker: writes \p Findings and \p CrossFile where the driver reads
/// them.
llvm::Error writeWorkerOutput(const std::string &Path,
                              const std::vector<Finding> &Findings,
                              const CrossFileFacts &CrossFile);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_WORKER_H
