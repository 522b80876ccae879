//===--- Diagnostics.cpp - Findings as LSP diagnostics --------------------===//

#include "Diagnostics.h"
#include "CheckCatalog.h"
#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torch_tidy::lsp {

using clang::tidy::torch_tidy::Severity;
using clang::tidy::torch_tidy::severityOf;

namespace severity {
inline constexpr int Error = 1, Warning = 2, Information = 3, Hint = 4;
} // namespace severity

/// DiagnosticTag.Unnecessary: editors fade the code out.
inline constexpr int UnnecessaryTag = 1;

/// The editor's severity: compiler errors and bugs are errors, hazards
/// warnings, performance costs information, and findings the probe ran
/// cleanly hints.
static int editorSeverity(const Finding &F) {
  if (F.IsError)
    return severity::Error;
  if (F.Downgraded)
    return severity::Hint;
  auto Level = severityOf(F.Check);
  if (!Level) // a compiler warning
    return severity::Warning;
  switch (*Level) {
  case Severity::Bug:
    return severity::Error;
  case Severity::Hazard:
    return severity::Warning;
  case Severity::Performance:
    return severity::Information;
  }
  llvm_unreachable("a severity without an editor's severity");
}

/// Whether the code the finding points at has no effect: a conversion whose
/// result is discarded changes nothing. No other rule's code is idle; it
/// does the wrong thing, or the right one at a cost.
static bool pointsAtCodeWithoutEffect(const Finding &F) {
  return F.Check == "device-discarded-to";
}

const LineTable *SourceTexts::lines(const std::string &File) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto Known = Tables.find(File);
  if (Known != Tables.end())
    return Known->second.get();
  auto Text = Texts.find(File);
  if (Text == Texts.end()) {
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return Tables[File].get(); // null, and not read again
    Text = Texts.emplace(File, (*Buffer)->getBuffer().str()).first;
  }
  // Map nodes do not move: the table's reference to the text stays valid.
  return (Tables[File] = std::make_unique<LineTable>(Text->second)).get();
}

std::string SourceTexts::slice(const std::string &File, unsigned Offset,
                               unsigned Length) {
  if (!lines(File))
    return "";
  std::lock_guard<std::mutex> Guard(Lock);
  return llvm::StringRef(Texts[File]).substr(Offset, Length).str();
}

/// The length of the token at \p Offset: an identifier or number, else one
/// character (none at a line's end).
static unsigned tokenLength(const LineTable &Lines, unsigned Offset) {
  unsigned Line = Lines.lineOf(Offset);
  llvm::StringRef Rest =
      Lines.line(Line).substr(Offset - Lines.lineStart(Line));
  size_t Length = 0;
  while (Length < Rest.size() &&
         (llvm::isAlnum(Rest[Length]) || Rest[Length] == '_'))
    ++Length;
  if (Length == 0 && !Rest.empty())
    Length = 1;
  return Length;
}

nlohmann::json tokenRange(const Span &S, SourceTexts &Texts,
                          PositionEncoding Encoding) {
  const LineTable *Lines = Texts.lines(S.File);
  if (!Lines)
    return {{"start", {{"line", 0}, {"character", 0}}},
            {"end", {{"line", 0}, {"character", 0}}}};
  return Lines->range(S.Offset, tokenLength(*Lines, S.Offset), Encoding);
}

/// The range shown for \p F at its own location: the highlighted range that
/// starts there, else the token there.
static nlohmann::json findingRange(const Finding &F, SourceTexts &Texts,
                                   PositionEncoding Encoding) {
  for (const Span &R : F.Ranges)
    if (R.File == F.Where.File && R.Offset == F.Where.Offset && R.Length > 0)
      if (const LineTable *Lines = Texts.lines(R.File))
        return Lines->range(R.Offset, R.Length, Encoding);
  return tokenRange(F.Where, Texts, Encoding);
}

static nlohmann::json related(const Span &Where, const std::string &Message,
                              SourceTexts &Texts, PositionEncoding Encoding) {
  return {{"location",
           {{"uri", uriFromPath(Where.File)},
            {"range", tokenRange(Where, Texts, Encoding)}}},
          {"message", Message}};
}

std::vector<ShownFinding> showFindings(const std::vector<Finding> &Findings,
                                       const std::string &File,
                                       SourceTexts &Texts,
                                       PositionEncoding Encoding) {
  std::vector<ShownFinding> Shown;
  for (const Finding &F : Findings) {
    nlohmann::json Related = nlohmann::json::array();
    std::string Message = F.Message + verdictSuffix(F);
    nlohmann::json Range;
    if (F.Where.File == File) {
      Range = findingRange(F, Texts, Encoding);
    } else {
      // Another file's finding is its own to show, but for the compiler's
      // errors there, which explain what goes wrong here: shown where this
      // file includes that one (or its first note here), else at the top.
      if (!F.IsError)
        continue;
      Span Anchor;
      Anchor.File = File;
      for (const Note &N : F.Notes)
        if (N.Where.File == File) {
          Anchor = N.Where;
          break;
        }
      Range = tokenRange(Anchor, Texts, Encoding);
      Related.push_back(related(F.Where, Message, Texts, Encoding));
      Message = "in included file: " + Message;
    }
    for (const Note &N : F.Notes)
      Related.push_back(related(N.Where, N.Message, Texts, Encoding));
    nlohmann::json D = {{"range", std::move(Range)},
                        {"severity", editorSeverity(F)},
                        {"code", F.Check},
                        {"source", "torch-tidy"},
                        {"message", Message}};
    if (!Related.empty())
      D["relatedInformation"] = std::move(Related);
    if (pointsAtCodeWithoutEffect(F))
      D["tags"] = nlohmann::json::array({UnnecessaryTag});
    std::string Documentation = checkDocumentationUri(F.Check);
    if (!Documentation.empty())
      D["codeDescription"] = {{"href", Documentation}};
    Shown.push_back({F, std::move(D)});
  }
  return Shown;
}

} // namespace torch_tidy::lsp
