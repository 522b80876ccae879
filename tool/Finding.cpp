//===--- Finding.cpp - One diagnostic, ready for every output format ------===//

#include "Finding.h"
#include "clang-tidy/GlobList.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <tuple>

namespace torch_tidy {

std::vector<unsigned> SourceIndex::lineStartsOf(llvm::StringRef Text) {
  std::vector<unsigned> Starts = {0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
  return Starts;
}

const std::vector<unsigned> &SourceIndex::lineStarts(const std::string &File) {
  auto [It, Inserted] = LineStarts.try_emplace(File);
  if (!Inserted)
    return It->second;
  if (auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false))
    It->second = lineStartsOf((*Buffer)->getBuffer());
  else
    It->second = {0};
  return It->second;
}

void SourceIndex::useContents(const std::string &File, llvm::StringRef Text) {
  std::lock_guard<std::mutex> Guard(Lock);
  LineStarts[File] = lineStartsOf(Text);
}

static std::pair<unsigned, unsigned>
lineAndColumn(const std::vector<unsigned> &Starts, unsigned Offset) {
  auto Next = std::upper_bound(Starts.begin(), Starts.end(), Offset);
  unsigned LineIndex = std::distance(Starts.begin(), Next) - 1;
  return {LineIndex + 1, Offset - Starts[LineIndex] + 1};
}

void SourceIndex::locate(Span &S) {
  if (S.File.empty())
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  const std::vector<unsigned> &Starts = lineStarts(S.File);
  std::tie(S.Line, S.Column) = lineAndColumn(Starts, S.Offset);
  std::tie(S.EndLine, S.EndColumn) = lineAndColumn(Starts, S.Offset + S.Length);
}

namespace {

/// Makes spans of one diagnostic. clang names a file as its compile command
/// does: a database whose "file" entries are relative to their "directory"
/// (Meson's, many hand-written and Bazel ones) gives relative names, which
/// the driver resolves against the build directory, as clang-tidy does.
class SpanMaker {
public:
  SpanMaker(const std::string &BuildDirectory, SourceIndex &Index)
      : BuildDirectory(BuildDirectory), Index(Index) {}

  Span operator()(llvm::StringRef File, unsigned Offset, unsigned Length) {
    Span S{absolute(File), Offset, Length};
    Index.locate(S);
    return S;
  }

private:
  std::string absolute(llvm::StringRef File) const {
    if (File.empty() || llvm::sys::path::is_absolute(File) ||
        BuildDirectory.empty())
      return File.str();
    llvm::SmallString<256> Path(BuildDirectory);
    llvm::sys::path::append(Path, File);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    return std::string(Path);
  }

  const std::string &BuildDirectory;
  SourceIndex &Index;
};

} // namespace

static std::vector<Edit>
toEdits(const llvm::StringMap<clang::tooling::Replacements> &Fix,
        SpanMaker &MakeSpan) {
  std::vector<Edit> Edits;
  for (const auto &FileFixes : Fix)
    for (const clang::tooling::Replacement &R : FileFixes.second)
      Edits.push_back(
          {MakeSpan(R.getFilePath(), R.getOffset(), R.getLength()),
           R.getReplacementText().str()});
  return Edits;
}

static std::vector<Span>
toSpans(const llvm::SmallVector<clang::tooling::FileByteRange, 1> &Ranges,
        SpanMaker &MakeSpan) {
  std::vector<Span> Spans;
  for (const clang::tooling::FileByteRange &Range : Ranges)
    Spans.push_back(MakeSpan(Range.FilePath, Range.FileOffset, Range.Length));
  return Spans;
}

Finding toFinding(const clang::tidy::ClangTidyError &Error,
                  SourceIndex &Index) {
  const clang::tooling::DiagnosticMessage &Message = Error.Message;
  Finding F;
  F.Check = Error.DiagnosticName;
  F.Message = Message.Message;
  F.IsError = Error.DiagLevel == clang::tooling::Diagnostic::Error ||
              Error.IsWarningAsError;
  F.IsWarningAsError = Error.IsWarningAsError;
  F.BuildDirectory = Error.BuildDirectory;
  SpanMaker MakeSpan(F.BuildDirectory, Index);
  F.Where = MakeSpan(Message.FilePath, Message.FileOffset, 0);
  F.Ranges = toSpans(Message.Ranges, MakeSpan);
  F.Fixes = toEdits(Message.Fix, MakeSpan);
  for (const clang::tooling::DiagnosticMessage &N : Error.Notes)
    F.Notes.push_back({MakeSpan(N.FilePath, N.FileOffset, 0), N.Message,
                       toEdits(N.Fix, MakeSpan), toSpans(N.Ranges, MakeSpan)});
  return F;
}

const Span *extentAt(const Span &Where, const std::vector<Span> &Ranges) {
  for (const Span &Range : Ranges)
    if (Range.File == Where.File && Range.Offset == Where.Offset &&
        Range.Length > 0)
      return &Range;
  return nullptr;
}

void sortAndDeduplicate(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::tie(F.Where.File, F.Where.Offset, F.Check, F.Message);
  };
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) {
                     return Key(A) < Key(B);
                   });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

void markWarningsAsErrors(std::vector<Finding> &Findings,
                          llvm::StringRef WarningsAsErrors) {
  clang::tidy::CachedGlobList Globs(WarningsAsErrors);
  for (Finding &F : Findings) {
    if (F.isCompilerError())
      continue; // an error of its own, not a warning
    F.IsWarningAsError = Globs.contains(F.Check);
    F.IsError = F.IsWarningAsError;
  }
}

} // namespace torch_tidy
