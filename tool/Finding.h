//===--- Finding.h - One diagnostic, ready for every output format --------===//

#ifndef TORCH_TIDY_TOOL_FINDING_H
#define TORCH_TIDY_TOOL_FINDING_H

#include "runtime/Verdict.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include <nlohmann/json.hpp>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// A range of one file, as byte offsets and as 1-based lines and columns.
struct Span {
  std::string File; // absolute path
  unsigned Offset = 0;
  unsigned Length = 0;
  unsigned Line = 0, Column = 0;
  unsigned EndLine = 0, EndColumn = 0;
};

struct Edit {
  Span Where;
  std::string Replacement;
};

struct Note {
  Span Where;
  std::string Message;
  std::vector<Edit> Edits;
  std::vector<Span> Ranges;
};

struct Finding {
  std::string Check;
  std::string Message;
  bool IsError = false;          // a compiler error or a warning as error
  bool IsWarningAsError = false;
  Span Where;
  std::vector<Span> Ranges;
  std::vector<Note> Notes;
  /// A finding another file decides: its last ChainLinks notes name, from
  /// the outermost, the facts of the chain it holds on (set by the solver
  /// of cross-file facts, after the worker's wire).
  unsigned ChainLinks = 0;
  std::vector<Edit> Fixes;
  std::string BuildDirectory;
  /// The replay plan the check recorded, without its id and location yet.
  std::optional<nlohmann::json> Plan;
  /// The check found no faithful replay for the finding's operation, so it
  /// has no plan: its verdict is "inconclusive", "operation not replayable".
  bool OperationNotReplayable = false;
  /// What the probe said when it replayed the plan.
  std::optional<plan::Verdict> Confirmation;
  /// The probe ran the plan cleanly: shown as a note, not a warning.
  bool Downgraded = false;

  bool isCompilerError() const {
    return IsError && !IsWarningAsError;
  }
};

/// Maps byte offsets of files to lines and columns, reading each file once.
class SourceIndex {
public:
  /// Fills Line/Column/EndLine/EndColumn of \p S from its File/Offset/Length.
  void locate(Span &S);

  /// Locates offsets of \p File in \p Text instead of the file on disk: the
  /// contents an editor has not saved, which the analysis read.
  void useContents(const std::string &File, llvm::StringRef Text);

private:
  const std::vector<unsigned> &lineStarts(const std::string &File);
  static std::vector<unsigned> lineStartsOf(llvm::StringRef Text);
  std::mutex Lock;
  std::map<std::string, std::vector<unsigned>> LineStarts;
};

Finding toFinding(const clang::tidy::ClangTidyError &Error, SourceIndex &Index);

/// The range of \p Ranges that starts where \p Where points, if any: what a
/// finding or note points at, whose end is the end of its region.
const Span *extentAt(const Span &Where, const std::vector<Span> &Ranges);

/// Sorts by file, offset and check, and drops findings reported twice (a
/// header seen from two translation units).
void sortAndDeduplicate(std::vector<Finding> &Findings);

/// Makes the warnings of checks that \p WarningsAsErrors (globs, as
/// --warnings-as-errors) names errors, and only those: as clang-tidy's engine
/// decides it, but after the analysis, so that a cached analysis serves any
/// --warnings-as-errors.
void markWarningsAsErrors(std::vector<Finding> &Findings,
                          llvm::StringRef WarningsAsErrors);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FINDING_H
