//===--- GitHubOutput.cpp - GitHub Actions' annotations and job summary ---===//
//
// --format=github: each finding as clang-tidy's text, for the log, followed by
// the workflow command that makes it an annotation on the pull request's
// diff (docs.github.com, "Workflow commands for GitHub Actions"); and the
// job summary, a Markdown table of the findings by rule and severity.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "CheckCatalog.h"
#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

namespace torch_tidy {

using clang::tidy::torch_tidy::Severity;
using clang::tidy::torch_tidy::severityName;
using clang::tidy::torch_tidy::severityOf;

/// The annotation's level: bugs, warnings as errors and compiler errors are
/// errors, hazards (and compiler warnings) warnings, performance notices.
static llvm::StringRef annotationLevel(const Finding &F) {
  if (F.Downgraded)
    return "notice";
  if (F.IsError)
    return "error";
  switch (severityOf(F.Check).value_or(Severity::Hazard)) {
  case Severity::Bug:
    return "error";
  case Severity::Hazard:
    return "warning";
  case Severity::Performance:
    return "notice";
  }
  llvm_unreachable("a severity without a level");
}

/// A workflow command's message: '%', CR and LF escaped.
static std::string escapeData(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '%': Out += "%25"; break;
    case '\r': Out += "%0D"; break;
    case '\n': Out += "%0A"; break;
    default: Out += C;
    }
  }
  return Out;
}

/// A workflow command's property value: also ':' and ','.
static std::string escapeProperty(llvm::StringRef Text) {
  std::string Out;
  for (char C : escapeData(Text)) {
    switch (C) {
    case ':': Out += "%3A"; break;
    case ',': Out += "%2C"; break;
    default: Out += C;
    }
  }
  return Out;
}

static std::string annotation(const Finding &F, llvm::StringRef SourceRoot) {
  std::string Line = "::" + annotationLevel(F).str();
  if (!F.Where.File.empty()) {
    const Span *Extent = extentAt(F.Where, F.Ranges);
    const Span &End = Extent ? *Extent : F.Where;
    Line += " file=" + escapeProperty(relativeToRoot(F.Where.File, SourceRoot)) +
            ",line=" + std::to_string(F.Where.Line) +
            ",col=" + std::to_string(F.Where.Column);
    if (End.EndLine)
      Line += ",endLine=" + std::to_string(End.EndLine);
    // GitHub takes an end column only on the line the annotation starts.
    if (End.EndLine == F.Where.Line && End.EndColumn)
      Line += ",endColumn=" + std::to_string(End.EndColumn);
    Line += ",";
  } else {
    Line += " ";
  }
  std::string Message = F.Message + verdictSuffix(F);
  for (const Note &N : F.Notes)
    Message += "\nnote: " +
               (N.Where.File.empty()
                    ? ""
                    : relativeToRoot(N.Where.File, SourceRoot) + ":" +
                          std::to_string(N.Where.Line) + ": ") +
               N.Message;
  return Line + "title=" + escapeProperty(F.Check) + "::" +
         escapeData(Message) + "\n";
}

void writeGitHub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 llvm::StringRef SourceRoot) {
  for (const Finding &F : Findings) {
    writeText(OS, {F}, /*UseColor=*/false);
    OS << annotation(F, SourceRoot);
  }
  OS.flush();
}

void writeGitHubSummary(llvm::raw_ostream &OS,
                        const std::vector<Finding> &Findings) {
  // Rows by severity, most severe first, then by rule.
  auto Rank = [](const Finding &F) -> std::pair<int, std::string> {
    if (F.isCompilerError())
      return {-1, "compiler error"};
    if (auto S = severityOf(F.Check))
      return {int(*S), severityName(*S).str()};
    return {int(std::size(clang::tidy::torch_tidy::AllSeverities)), "-"};
  };
  std::map<std::pair<std::pair<int, std::string>, std::string>, size_t> Rows;
  for (const Finding &F : Findings)
    ++Rows[{Rank(F), F.Check}];
  OS << "### torch-tidy\n\n";
  if (Findings.empty()) {
    OS << "No findings.\n";
    return;
  }
  OS << "| Rule | Severity | Findings |\n|---|---|---:|\n";
  for (const auto &[Key, Count] : Rows) {
    std::string Doc = checkDocumentationUri(Key.second);
    std::string Rule = Doc.empty() ? "`" + Key.second + "`"
                                   : "[`" + Key.second + "`](" + Doc + ")";
    OS << "| " << Rule << " | " << Key.first.second << " | " << Count << " |\n";
  }
  OS << "| **total** | | **" << Findings.size() << "** |\n";
}

} // namespace torch_tidy
