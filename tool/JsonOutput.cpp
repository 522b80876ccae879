//===--- JsonOutput.cpp - One JSON object per finding ---------------------===//

#include "CheckCatalog.h"
#include "JsonFields.h"
#include "Output.h"

namespace torch_tidy {

static nlohmann::json position(const Span &S) {
  return {{"file", S.File}, {"line", S.Line}, {"column", S.Column}};
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

void writeJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Finding &F : Findings) {
    nlohmann::json Item = position(F.Where);
    Item["check"] = F.Check;
    Item["severity"] = severity(F);
    if (auto Severity = clang::tidy::torch_tidy::severityOf(F.Check))
      Item["rule_severity"] = severityName(*Severity).str();
    Item["message"] = F.Message;
    nlohmann::json Notes = nlohmann::json::array();
    for (const Note &N : F.Notes) {
      nlohmann::json J = position(N.Where);
      J["message"] = N.Message;
      Notes.push_back(std::move(J));
    }
    Item["notes"] = std::move(Notes);
    Item["fixes"] = edits(F.Fixes);
    if (F.Confirmation)
      Item["verdict"] = verdictJson(*F.Confirmation);
    Out.push_back(std::move(Item));
  }
  OS << dumpJson(Out) << "\n";
  OS.flush();
}

} // namespace torch_tidy
