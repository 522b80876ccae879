//===--- TextOutput.cpp - clang-tidy's text format ------------------------===//
//
// Replays findings through clang's DiagnosticsEngine and TextDiagnosticPrinter,
// as clang-tidy's own reporter does, so the output is clang-tidy's byte for
// byte in shape, but can go to any stream.
//
//===----------------------------------------------------------------------===//

#include "CheckCatalog.h"
#include "Output.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"

namespace torch_tidy {

using namespace clang;
using clang::tidy::torch_tidy::severityName;
using clang::tidy::torch_tidy::severityOf;

namespace {

class TextReporter {
public:
  TextReporter(llvm::raw_ostream &OS, bool UseColor)
      : Files((FileSystemOptions())), DiagOpts(new DiagnosticOptions()),
        Printer(new TextDiagnosticPrinter(OS, &*DiagOpts)),
        Diags(new DiagnosticIDs, &*DiagOpts, Printer),
        SourceMgr(Diags, Files) {
    DiagOpts->ShowColors = UseColor;
    Printer->BeginSourceFile(LangOpts, nullptr);
  }
  ~TextReporter() { Printer->EndSourceFile(); }

  void report(const Finding &F) {
    {
      auto Level = F.Downgraded ? DiagnosticsEngine::Note
                   : F.IsError  ? DiagnosticsEngine::Error
                                : DiagnosticsEngine::Warning;
      // The rule's severity follows its name, as clang's
      // -fdiagnostics-show-category follows a warning's flag.
      std::string Name = F.Check;
      if (auto Severity = severityOf(F.Check))
        Name += "," + severityName(*Severity).str();
      if (F.IsWarningAsError)
        Name += ",-warnings-as-errors";
      auto Diag = Diags.Report(location(F.Where),
                               Diags.getCustomDiagID(Level, "%0 [%1]%2"))
                  << F.Message << Name << verdictSuffix(F);
      for (const Span &Range : F.Ranges)
        Diag << range(Range);
    }
    for (const Note &N : F.Notes) {
      auto Diag = Diags.Report(location(N.Where),
                               Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                                     "%0"))
                  << N.Message;
      for (const Edit &E : N.Edits)
        Diag << FixItHint::CreateReplacement(range(E.Where), E.Replacement);
    }
  }

private:
  SourceLocation location(const Span &S) {
    if (S.File.empty())
      return {};
    auto File = Files.getOptionalFileRef(S.File);
    if (!File)
      return {};
    FileID ID = SourceMgr.getOrCreateFileID(*File, SrcMgr::C_User);
    return SourceMgr.getLocForStartOfFile(ID).getLocWithOffset(S.Offset);
  }

  CharSourceRange range(const Span &S) {
    SourceLocation Begin = location(S);
    if (Begin.isInvalid())
      return {};
    return CharSourceRange::getCharRange(Begin,
                                         Begin.getLocWithOffset(S.Length));
  }

  FileManager Files;
  LangOptions LangOpts;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts;
  TextDiagnosticPrinter *Printer; // owned by Diags
  DiagnosticsEngine Diags;
  SourceManager SourceMgr;
};

} // namespace

std::string verdictSuffix(const Finding &F) {
  if (!F.Confirmation)
    return "";
  const plan::Verdict &V = *F.Confirmation;
  std::string Text = " " + V.Outcome;
  if (!V.Device.empty())
    Text += " on " + V.Device;
  const std::string &Detail = V.Message.empty() ? V.Reason : V.Message;
  if (!Detail.empty())
    Text += ": " + Detail;
  return Text;
}

void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               bool UseColor) {
  TextReporter Reporter(OS, UseColor);
  for (const Finding &F : Findings)
    Reporter.report(F);
  OS.flush();
}

} // namespace torch_tidy
