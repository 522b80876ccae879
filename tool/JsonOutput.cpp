//===--- JsonOutput.cpp - One JSON object per finding ---------------------===//

#include "CheckCatalog.h"
#include "JsonFields.h"
#include "Output.h"

namespace torch_tidy {

/// Where a finding or note points, to the end of what it points at (the
/// diagnostic's range that starts there; without one, the point itself).
static nlohmann::json position(const Span &Where,
                               const std::vector<Span> &Ranges) {
  const Span *Extent = extentAt(Where, Ranges);
  const Span &End = Extent ? *Extent : Where;
  return {{"file", Where.File},    {"line", Where.Line},
          {"column", Where.Column}, {"end_line", End.EndLine},
          {"end_column", End.EndColumn}};
}

static nlohmann::json edits(const std::vector<Edit> &Edits) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Edit &E : Edits)
    Out.push_back({{"file", E.Where.File},
                   {"offset", E.Where.Offset},
                   {"length", E.Where.Length},
                   {"line", E.Where.Line},
                   {"column", E.Where.Column},
                   {"end_line", E.Where.EndLine},
                   {"end_column", E.Where.EndColumn},
                   {"replacement", E.Replacement}});
  return Out;
}

static nlohmann::json findingJson(const Finding &F) {
  nlohmann::json Item = position(F.Where, F.Ranges);
  Item["check"] = F.Check;
  Item["severity"] = severity(F);
  if (auto Severity = clang::tidy::torch_tidy::severityOf(F.Check))
    Item["rule_severity"] = severityName(*Severity).str();
  Item["message"] = F.Message;
  nlohmann::json Notes = nlohmann::json::array();
  for (const Note &N : F.Notes) {
    nlohmann::json J = position(N.Where, N.Ranges);
    J["message"] = N.Message;
    Notes.push_back(std::move(J));
  }
  Item["notes"] = std::move(Notes);
  Item["fixes"] = edits(F.Fixes);
  if (F.Confirmation)
    Item["verdict"] = verdictJson(*F.Confirmation);
  return Item;
}

void writeJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Finding &F : Findings)
    Out.push_back(findingJson(F));
  OS << dumpJson(Out) << "\n";
  OS.flush();
}

void writeJsonLines(llvm::raw_ostream &OS,
                    const std::vector<Finding> &Findings) {
  for (const Finding &F : Findings)
    OS << dumpJson(findingJson(F), /*Indent=*/-1) << "\n";
  OS.flush();
}

} // namespace torch_tidy
