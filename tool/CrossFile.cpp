//===--- CrossFile.cpp - Findings that another file decides ---------------===//

#include "CrossFile.h"
#include "FindingWire.h"
#include "llvm/Support/FileSystem.h"

namespace torch_tidy {

namespace flow = clang::tidy::torch_tidy::flow;
using clang::tidy::torch_tidy::utils::RecordedPlace;
using nlohmann::json;

CrossFileCollector::CrossFileCollector()
    : Previous(flow::setCrossFileRecorder(this)) {}

CrossFileCollector::~CrossFileCollector() {
  flow::setCrossFileRecorder(Previous);
}

void CrossFileCollector::conditional(llvm::StringRef Check, RecordedPlace At,
                                     Need Condition) {
  Conditions.push_back({Check.str(), std::move(At), std::move(Condition)});
}

void CrossFileCollector::supply(Need Fact, RecordedPlace At, std::string Note,
                                std::optional<Need> Condition) {
  Span Where;
  Where.File = std::move(At.File);
  Where.Offset = At.Offset;
  Supplies.push_back({std::move(Fact), std::move(Where), std::move(Note),
                      std::move(Condition)});
}

CrossFileFacts CrossFileCollector::take(std::vector<Finding> &Findings,
                                        const std::string &Unit,
                                        SourceIndex &Index) {
  CrossFileFacts Facts;
  Facts.Unit = Unit;
  for (Recorded &R : Conditions)
    for (auto It = Findings.begin(); It != Findings.end(); ++It)
      if (It->Check == R.Check && It->Where.Offset == R.At.Offset &&
          llvm::sys::fs::equivalent(It->Where.File, R.At.File)) {
        Facts.Conditional.push_back({std::move(*It), std::move(R.Condition)});
        Findings.erase(It);
        break;
      }
  for (Supply &S : Supplies)
    Index.locate(S.Where);
  Facts.Supplies = std::move(Supplies);
  Conditions.clear();
  Supplies.clear();
  return Facts;
}

// ---- Wire ------------------------------------------------------------------

static const char *const KindNames[] = {
    "called-with-accelerator", "module-moved", "registers-submodule",
    "program-names-accelerator", "called-with-moved-module",
    "called-with-cpu-module", "returns-cpu"};

static json needToWire(const Need &N) {
  return {{"kind", KindNames[N.What]},
          {"entity", N.Entity},
          {"param", N.Param},
          {"submodule", N.Submodule},
          {"part", N.Part}};
}

static Need needFromWire(const json &J) {
  Need N;
  std::string Kind = J.at("kind").get<std::string>();
  auto It = llvm::find(KindNames, Kind);
  if (It == std::end(KindNames))
    throw std::invalid_argument("unknown kind '" + Kind + "'");
  N.What = Need::Kind(It - std::begin(KindNames));
  N.Entity = J.at("entity").get<std::string>();
  N.Param = J.at("param").get<unsigned>();
  N.Submodule = J.at("submodule").get<std::string>();
  N.Part = J.at("part").get<std::string>();
  return N;
}

json crossFileToWire(const CrossFileFacts &Facts) {
  json Conditional = json::array(), Supplies = json::array();
  for (const ConditionalFinding &C : Facts.Conditional)
    Conditional.push_back({{"finding", findingsToWire({C.F}).at(0)},
                           {"needs", needToWire(C.Condition)}});
  for (const Supply &S : Facts.Supplies) {
    json Entry = {{"fact", needToWire(S.Fact)},
                  {"where", spanToWire(S.Where)},
                  {"note", S.Note}};
    if (S.Condition)
      Entry["if"] = needToWire(*S.Condition);
    Supplies.push_back(std::move(Entry));
  }
  return {{"version", CrossFileWireVersion},
          {"unit", Facts.Unit},
          {"conditional", std::move(Conditional)},
          {"supplies", std::move(Supplies)}};
}

llvm::Expected<CrossFileFacts> crossFileFromWire(const json &Wire) {
  CrossFileFacts Facts;
  try {
    if (Wire.at("version").get<int>() != CrossFileWireVersion)
      throw std::invalid_argument("another version");
    Facts.Unit = Wire.at("unit").get<std::string>();
    for (const json &C : Wire.at("conditional")) {
      auto Findings = findingsFromWire(json::array({C.at("finding")}));
      if (!Findings)
        return Findings.takeError();
      Facts.Conditional.push_back(
          {std::move(Findings->front()), needFromWire(C.at("needs"))});
    }
    for (const json &S : Wire.at("supplies")) {
      std::optional<Need> Condition;
      if (S.contains("if"))
        Condition = needFromWire(S.at("if"));
      Facts.Supplies.push_back({needFromWire(S.at("fact")),
                                spanFromWire(S.at("where")),
                                S.at("note").get<std::string>(),
                                std::move(Condition)});
    }
  } catch (const std::exception &E) {
    return llvm::createStringError(std::errc::invalid_argument,
                                   "malformed cross-file facts: %s", E.what());
  }
  return Facts;
}

} // namespace torch_tidy
