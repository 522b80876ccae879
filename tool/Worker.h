//===--- Worker.h - Each file analysed in a process of its own ------------===//
//
// The driver runs itself once per file ("torch-tidy --worker-file=F
// --worker-output=O <the user's arguments>") so that a crash, an abort or a
// stack overflow while analysing one file costs that file only: the run goes
// on and the file gets a torch-tidy-crash finding. A process per file also
// returns all of a file's memory (a LibTorch AST is ~1 GB) before the next.
// The precompiled headers that files share are built by workers too.
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

/// What a worker process did.
struct WorkerRun {
  /// It exited normally and wrote its output.
  bool Succeeded = false;
  /// Analysing: the worker output, as the worker wrote it (the unit the
  /// result cache stores and replays).
  std::string Output;
  /// The files it read, absolute; those read through the shared
  /// precompiled header apart.
  std::vector<std::string> Read, ReadThroughPch;
  /// The analysis started from the shared precompiled header it was given
  /// (a header that cannot be loaded is ignored).
  bool UsedSharedPch = false;
  /// When it failed: how ("Segmentation fault", "exit status 1: ...") and
  /// what it printed.
  std::string Problem, Stderr;
};

class WorkerLauncher {
public:
  /// \p Executable is torch-tidy itself; \p Arguments the user's arguments
  /// (without argv[0]), passed on unchanged.
  WorkerLauncher(std::string Executable, std::vector<std::string> Arguments)
      : Executable(std::move(Executable)), Arguments(std::move(Arguments)) {}

  /// Analyses \p File, from \p SharedPch when it is not empty.
  WorkerRun analyze(const std::string &File, const std::string &SharedPch) const;

  /// Precompiles \p PrefixHeader into \p Output with \p File's command.
  WorkerRun precompile(const std::string &File, const std::string &PrefixHeader,
                       const std::string &Output) const;

private:
  WorkerRun launch(std::vector<std::string> WorkerArguments, bool Analysing) const;

  std::string Executable;
  std::vector<std::string> Arguments;
};

/// The findings of \p File from its worker output, fresh or replayed from
/// the result cache: the one place where worker output becomes findings.
/// Output that cannot be read is a torch-tidy-crash finding. What the file
/// leaves for the others goes to \p CrossFile.
std::vector<Finding> readWorkerOutput(const std::string &File,
                                      llvm::StringRef Output,
                                      SourceIndex &Index,
                                      CrossFileFacts &CrossFile);

/// In a worker: writes \p Findings and \p CrossFile where the driver reads
/// them.
llvm::Error writeWorkerOutput(const std::string &Path,
                              const std::vector<Finding> &Findings,
                              const CrossFileFacts &CrossFile);

/// In a worker: writes the files the worker read where the driver reads them.
llvm::Error writeWorkerInputs(const std::string &Path,
                              const std::vector<std::string> &Read,
                              const std::vector<std::string> &ReadThroughPch,
                              bool UsedSharedPch);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_WORKER_H
