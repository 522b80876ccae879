//===--- ProjectRun.h - Every file of a run, as fast as it can be -*- C++ -*-===//
//
// Analyses the files of a run in worker processes, -j at a time: a file whose
// cached analysis is still valid is replayed instead (ResultCache.h), and
// files whose leading includes agree are parsed from a precompiled header of
// them, built once (SharedPch.h). On a terminal, progress is one line that
// rewrites itself; in a log (a pipe, CI), a line every few files or seconds,
// as ninja and ctest write theirs. Each file's findings can be handed on as
// soon as the file is done (a streaming output). At the end, one line says how many findings the run has, how many files were
// cached, analysed, parsed from a shared precompiled header or failed to
// compile, and how long it took.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_PROJECTRUN_H
#define TORCH_TIDY_TOOL_PROJECTRUN_H

#include "ContentDigest.h"
#include "Finding.h"
#include "ResultCache.h"
#include "SharedPch.h"
#include "Worker.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace torch_tidy {

/// How a run shows its progress on stderr.
enum class ProgressStyle {
  None,
  Terminal, // one line, rewritten
  Log,      // "[12/41] src/train.cpp" every few files or seconds
};

struct ProjectSettings {
  unsigned Jobs = 1;
  ProgressStyle Progress = ProgressStyle::None;
  /// Given each file's findings, sorted, as soon as the file is done, one
  /// file at a time; those that cross-file resolution adds come only in
  /// run()'s result.
  std::function<void(const std::vector<Finding> &)> OnFileDone;
  bool FixNotes = false;
  /// The digest of torch-tidy's build (toolDigest()).
  std::string Tool;
  /// Null: every file is analysed (--no-cache).
  ResultCache *Cache = nullptr;
  /// Null: every file is parsed on its own (--no-shared-pch).
  SharedPchStore *Pchs = nullptr;
};

class ProjectRun {
public:
  using OptionsLookup =
      std::function<clang::tidy::ClangTidyOptions(const std::string &File)>;

  ProjectRun(const WorkerLauncher &Launcher,
             const clang::tooling::CompilationDatabase &Database,
             OptionsLookup OptionsFor, FileDigests &Digests,
             ProjectSettings Settings)
      : Launcher(Launcher), Database(Database),
        OptionsFor(std::move(OptionsFor)), Digests(Digests),
        Settings(std::move(Settings)) {}

  /// The findings of \p Files, sorted and without duplicates.
  std::vector<Finding> run(const std::vector<std::string> &Files);

  /// The run's last line: "torch-tidy: 3 findings (2 bugs, 1 performance);
  /// 40 files: 39 cached, 1 analysed (1 from a shared precompiled header);
  /// 0 failed to compile; 2.4 s", given the findings that count, their
  /// counts by severity and the run's wall time.
  void printSummary(llvm::raw_ostream &OS, size_t Findings,
                    llvm::StringRef BySeverity,
                    std::chrono::duration<double> WallTime) const;

private:
  struct FileState;
  struct Prefix;
  void lookUpCache(std::vector<FileState> &States);
  std::vector<Prefix> planPrefixes(std::vector<FileState> &States);
  std::string buildPrefix(Prefix &P);
  void analyse(FileState &State, const std::string &Pch);
  void progress(const std::string &File, llvm::StringRef Note);
  void finishFile(FileState &State);

  const WorkerLauncher &Launcher;
  const clang::tooling::CompilationDatabase &Database;
  OptionsLookup OptionsFor;
  FileDigests &Digests;
  ProjectSettings Settings;
  SourceIndex Index;
  std::mutex Lock;
  size_t Done = 0, Total = 0;
  /// Where the last progress line of a log was written.
  size_t LoggedDone = 0;
  std::chrono::steady_clock::time_point LoggedAt = std::chrono::steady_clock::now();
  struct {
    size_t Cached = 0, Analysed = 0, FromSharedPch = 0, Crashed = 0;
    size_t FailedToCompile = 0;
    size_t PchsBuilt = 0, PchsReused = 0;
    /// Findings another file decides, and the chains the solver's bound cut.
    size_t AcrossFiles = 0, ChainsCut = 0;
  } Count;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_PROJECTRUN_H
