//===--- sarif_output_fuzzer.cpp - writeSarif on hostile findings ---------===//
//
// The output must always be valid JSON; strings come back as UTF-8 (bad bytes
// replaced by U+FFFD); URIs are percent-encoded and decode to the paths; and
// what code scanning validates holds: regions start at line 1 or later and
// never end before they start, and each result's ruleIndex names its rule.
//
//===----------------------------------------------------------------------===//

#include "FindingsFromBytes.h"
#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace torch_tidy;
using namespace torch_tidy::fuzz;
using nlohmann::json;

static void checkString(const json &Object, const char *Key,
                        const std::string &Written) {
  check(Object.contains(Key) && Object[Key].is_string(), "a string field",
        Key);
  check(survivesAsUtf8(Written, Object[Key].get<std::string>()),
        "a string survives the SARIF output", Key);
}

/// Undoes SARIF's percent-encoding; URIs hold nothing else but ASCII.
static std::string decodeUri(const std::string &Uri) {
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned char C = Uri[I];
    check(C > ' ' && C < 0x7f && C != '\\', "a URI is printable ASCII", Uri);
    if (C != '%') {
      Out += C;
      continue;
    }
    check(I + 2 < Uri.size() && llvm::isHexDigit(Uri[I + 1]) &&
              llvm::isHexDigit(Uri[I + 2]),
          "'%' starts an escape", Uri);
    Out += static_cast<char>(llvm::hexFromNibbles(Uri[I + 1], Uri[I + 2]));
    I += 2;
  }
  return Out;
}

/// The path an artifactLocation names.
static std::string pathOf(const json &Artifact, const std::string &Root) {
  std::string Uri = Artifact.at("uri").get<std::string>();
  if (Artifact.contains("uriBaseId")) {
    check(Artifact["uriBaseId"] == "SRCROOT", "the one base id");
    return (Root.empty() || Root.back() == '/' ? Root : Root + "/") +
           decodeUri(Uri);
  }
  check(Uri.rfind("file://", 0) == 0, "an absolute file URI", Uri);
  return decodeUri(Uri.substr(7));
}

static void checkRegion(const json &Region) {
  int64_t StartLine = Region.at("startLine"), EndLine = Region.at("endLine");
  int64_t StartColumn = Region.at("startColumn"),
          EndColumn = Region.at("endColumn");
  check(StartLine >= 1 && StartColumn >= 1, "a region starts at 1:1 or later",
        Region.dump());
  check(EndLine > StartLine || (EndLine == StartLine && EndColumn >= StartColumn),
        "a region ends where it starts or later", Region.dump());
}

/// A location of \p S: a physical one when it has a file.
static void checkLocation(const json &Location, const Span &S,
                          const std::string &Root) {
  if (S.File.empty()) {
    check(!Location.contains("physicalLocation"),
          "no physical location without a file", Location.dump());
    return;
  }
  const json &Physical = Location.at("physicalLocation");
  check(pathOf(Physical.at("artifactLocation"), Root) == S.File,
        "the URI decodes to the file", S.File);
  checkRegion(Physical.at("region"));
  check(Physical["region"]["startLine"] == S.Line, "the located line");
}

static void checkFixes(const json &Fixes, const Finding &F,
                       const std::string &Root) {
  std::map<std::string, std::vector<const Edit *>> ByFile;
  for (const Edit &E : F.Fixes)
    ByFile[E.Where.File].push_back(&E);
  size_t Replacements = 0;
  for (const json &Fix : Fixes)
    for (const json &Change : Fix.at("artifactChanges")) {
      std::string Path = pathOf(Change.at("artifactLocation"), Root);
      const auto &Edits = ByFile[Path];
      const json &Rs = Change.at("replacements");
      check(Rs.size() == Edits.size(), "every edit of a file, once", Path);
      for (size_t I = 0; I < Rs.size(); ++I) {
        checkRegion(Rs[I].at("deletedRegion"));
        checkString(Rs[I].at("insertedContent"), "text", Edits[I]->Replacement);
      }
      Replacements += Rs.size();
    }
  check(Replacements == F.Fixes.size(), "every fix");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  GeneratedFindings Generated = FindingGenerator(In).generate();
  const std::vector<Finding> &Findings = Generated.Findings;
  const std::string &Root = Generated.SourceRoot;

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeSarif(OS, Findings, Root);

  json Out = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  check(!Out.is_discarded(), "writeSarif writes valid JSON",
        Text.substr(0, 2000));
  const json &Run = Out.at("runs").at(0);
  const json &Rules = Run.at("tool").at("driver").at("rules");
  const json &Results = Run.at("results");
  check(Results.size() == Findings.size(), "one result per finding");
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    const json &Result = Results[I];
    checkString(Result, "ruleId", F.Check);
    size_t RuleIndex = Result.at("ruleIndex");
    check(RuleIndex < Rules.size() &&
              Rules[RuleIndex].at("id") == Result["ruleId"],
          "ruleIndex names the result's rule");
    checkString(Result.at("message"), "text", F.Message);

    const json &Locations = Result.at("locations");
    check(Locations.size() == (F.Where.File.empty() ? 0u : 1u),
          "one location, none without a file", Locations.dump());
    if (!Locations.empty())
      checkLocation(Locations[0], F.Where, Root);

    size_t Related =
        Result.contains("relatedLocations") ? Result["relatedLocations"].size()
                                            : 0;
    check(Related == F.Notes.size(), "a related location per note");
    for (size_t N = 0; N < Related; ++N) {
      const json &Loc = Result["relatedLocations"][N];
      checkLocation(Loc, F.Notes[N].Where, Root);
      checkString(Loc.at("message"), "text", F.Notes[N].Message);
    }
    checkFixes(Result.at("fixes"), F, Root);
    check(Result.contains("properties") == F.Confirmation.has_value(),
          "the verdict when the probe judged");
    if (F.Confirmation) {
      checkString(Result["properties"], "verdict", F.Confirmation->Outcome);
      // The verdict schema leaves empty fields out.
      if (!F.Confirmation->Device.empty())
        checkString(Result["properties"], "device", F.Confirmation->Device);
      if (!F.Confirmation->Message.empty())
        checkString(Result["properties"], "message", F.Confirmation->Message);
    }
  }
  return 0;
}
