//===--- FindingWire.cpp - Findings as JSON between processes -------------===//

#include "FindingWire.h"

namespace torch_tidy {

using nlohmann::json;

json spanToWire(const Span &S) {
  return {S.File, S.Offset, S.Length, S.Line, S.Column, S.EndLine, S.EndColumn};
}

Span spanFromWire(const json &J) {
  Span S;
  S.File = J.at(0).get<std::string>();
  S.Offset = J.at(1).get<unsigned>();
  S.Length = J.at(2).get<unsigned>();
  S.Line = J.at(3).get<unsigned>();
  S.Column = J.at(4).get<unsigned>();
  S.EndLine = J.at(5).get<unsigned>();
  S.EndColumn = J.at(6).get<unsigned>();
  return S;
}

static json editsToWire(const std::vector<Edit> &Edits) {
  json Out = json::array();
  for (const Edit &E : Edits)
    Out.push_back({{"where", spanToWire(E.Where)}, {"text", E.Replacement}});
  return Out;
}

static std::vector<Edit> editsFromWire(const json &J) {
  std::vector<Edit> Edits;
  for (const json &E : J)
    Edits.push_back({spanFromWire(E.at("where")), E.at("text").get<std::string>()});
  return Edits;
}

static json spansToWire(const std::vector<Span> &Spans) {
  json Out = json::array();
  for (const Span &S : Spans)
    Out.push_back(spanToWire(S));
  return Out;
}

static std::vector<Span> spansFromWire(const json &J) {
  std::vector<Span> Spans;
  for (const json &S : J)
    Spans.push_back(spanFromWire(S));
  return Spans;
}

json findingsToWire(const std::vector<Finding> &Findings) {
  json Out = json::array();
  for (const Finding &F : Findings) {
    json Notes = json::array();
    for (const Note &N : F.Notes)
      Notes.push_back({{"where", spanToWire(N.Where)},
                       {"message", N.Message},
                       {"edits", editsToWire(N.Edits)},
                       {"ranges", spansToWire(N.Ranges)}});
    json Item = {{"check", F.Check},
                 {"message", F.Message},
                 {"error", F.IsError},
                 {"warningAsError", F.IsWarningAsError},
                 {"where", spanToWire(F.Where)},
                 {"ranges", spansToWire(F.Ranges)},
                 {"notes", std::move(Notes)},
                 {"fixes", editsToWire(F.Fixes)},
                 {"buildDirectory", F.BuildDirectory}};
    if (F.Plan)
      Item["plan"] = *F.Plan;
    if (F.OperationNotReplayable)
      Item["notReplayable"] = true;
    Out.push_back(std::move(Item));
  }
  return Out;
}

llvm::Expected<std::vector<Finding>> findingsFromWire(const json &Wire) {
  std::vector<Finding> Findings;
  if (!Wire.is_array())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "malformed findings: not an array");
  try {
    for (const json &Item : Wire) {
      Finding F;
      F.Check = Item.at("check").get<std::string>();
      F.Message = Item.at("message").get<std::string>();
      F.IsError = Item.at("error").get<bool>();
      F.IsWarningAsError = Item.at("warningAsError").get<bool>();
      F.Where = spanFromWire(Item.at("where"));
      F.Ranges = spansFromWire(Item.at("ranges"));
      for (const json &N : Item.at("notes"))
        F.Notes.push_back({spanFromWire(N.at("where")),
                           N.at("message").get<std::string>(),
                           editsFromWire(N.at("edits")),
                           spansFromWire(N.at("ranges"))});
      F.Fixes = editsFromWire(Item.at("fixes"));
      F.BuildDirectory = Item.at("buildDirectory").get<std::string>();
      if (Item.contains("plan"))
        F.Plan = Item.at("plan");
      F.OperationNotReplayable = Item.value("notReplayable", false);
      Findings.push_back(std::move(F));
    }
  } catch (const json::exception &E) {
    return llvm::createStringError(std::errc::invalid_argument,
                                   "malformed findings: %s", E.what());
  }
  return Findings;
}

} // namespace torch_tidy
