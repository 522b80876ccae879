//===--- CrossFile.cpp - Findings that another file decides ---------------===//

#include "CrossFile.h"
#include "FindingWire.h"
#include "llvm/Support/FileSystem.h"
#include <map>

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

void CrossFileCollector::supply(Need Fact, RecordedPlace At, std::string Note) {
  Span Where;
  Where.File = std::move(At.File);
  Where.Offset = At.Offset;
  Supplies.push_back({std::move(Fact), std::move(Where), std::move(Note)});
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

static const char *const KindNames[] = {"called-with-accelerator",
                                        "module-moved", "registers-submodule",
                                        "program-names-accelerator",
                                        "called-with-moved-module",
                                        "called-with-cpu-module"};

static json needToWire(const Need &N) {
  return {{"kind", KindNames[N.What]},
          {"entity", N.Entity},
          {"param", N.Param},
          {"submodule", N.Submodule}};
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
  return N;
}

json crossFileToWire(const CrossFileFacts &Facts) {
  json Conditional = json::array(), Supplies = json::array();
  for (const ConditionalFinding &C : Facts.Conditional)
    Conditional.push_back({{"finding", findingsToWire({C.F}).at(0)},
                           {"needs", needToWire(C.Condition)}});
  for (const Supply &S : Facts.Supplies)
    Supplies.push_back({{"fact", needToWire(S.Fact)},
                        {"where", spanToWire(S.Where)},
                        {"note", S.Note}});
  return {{"unit", Facts.Unit},
          {"conditional", std::move(Conditional)},
          {"supplies", std::move(Supplies)}};
}

llvm::Expected<CrossFileFacts> crossFileFromWire(const json &Wire) {
  CrossFileFacts Facts;
  try {
    Facts.Unit = Wire.at("unit").get<std::string>();
    for (const json &C : Wire.at("conditional")) {
      auto Findings = findingsFromWire(json::array({C.at("finding")}));
      if (!Findings)
        return Findings.takeError();
      Facts.Conditional.push_back(
          {std::move(Findings->front()), needFromWire(C.at("needs"))});
    }
    for (const json &S : Wire.at("supplies"))
      Facts.Supplies.push_back({needFromWire(S.at("fact")),
                                spanFromWire(S.at("where")),
                                S.at("note").get<std::string>()});
  } catch (const std::exception &E) {
    return llvm::createStringError(std::errc::invalid_argument,
                                   "malformed cross-file facts: %s", E.what());
  }
  return Facts;
}

// ---- Resolution ------------------------------------------------------------

namespace {

struct Supplied {
  const Supply *S;
  const std::string *Unit;
};

/// The supplies of every file, the first per fact and unit in file order;
/// a module class moved counts for the submodules it registers too.
std::multimap<Need, Supplied> suppliesOf(std::vector<const CrossFileFacts *> Files) {
  std::multimap<Need, Supplied> Out;
  std::vector<std::pair<Need, const std::string *>> Registrations;
  for (const CrossFileFacts *File : Files)
    for (const Supply &S : File->Supplies) {
      if (S.Fact.What == Need::RegistersSubmodule)
        Registrations.push_back({S.Fact, &File->Unit});
      else
        Out.insert({S.Fact, {&S, &File->Unit}});
    }
  std::vector<std::pair<Need, Supplied>> Work;
  for (const auto &Entry : Out)
    if (Entry.first.What == Need::ModuleMoved)
      Work.push_back(Entry);
  while (!Work.empty()) {
    auto [Moved, From] = Work.back();
    Work.pop_back();
    for (const auto &[Registers, Unit] : Registrations) {
      if (Registers.Entity != Moved.Entity)
        continue;
      Need Sub{Need::ModuleMoved, Registers.Submodule};
      bool Known = false;
      for (auto [It, End] = Out.equal_range(Sub); It != End; ++It)
        Known |= *It->second.Unit == *From.Unit;
      if (!Known) {
        Out.insert({Sub, From});
        Work.push_back({Sub, From});
      }
    }
  }
  return Out;
}

} // namespace

std::vector<Finding> resolveCrossFile(const std::vector<CrossFileFacts> &Files) {
  std::vector<const CrossFileFacts *> Sorted;
  for (const CrossFileFacts &File : Files)
    Sorted.push_back(&File);
  llvm::sort(Sorted, [](const CrossFileFacts *A, const CrossFileFacts *B) {
    return A->Unit < B->Unit;
  });
  std::multimap<Need, Supplied> Supplies = suppliesOf(Sorted);
  std::vector<Finding> Resolved;
  for (const CrossFileFacts *File : Sorted)
    for (const ConditionalFinding &C : File->Conditional)
      for (auto [It, End] = Supplies.equal_range(C.Condition); It != End; ++It)
        if (*It->second.Unit != File->Unit) {
          Finding F = C.F;
          F.Notes.push_back({It->second.S->Where, It->second.S->Note, {}});
          Resolved.push_back(std::move(F));
          break;
        }
  return Resolved;
}

} // namespace torch_tidy
