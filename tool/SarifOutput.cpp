//===--- SarifOutput.cpp - SARIF 2.1.0 for code scanning ------------------===//

#include "CrashReport.h"
#include "JsonFields.h"
#include "Output.h"
#include "Version.h"
#include "CheckCatalog.h"
#include "FileContents.h"
#include "Fingerprint.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"
#include <map>

namespace torch_tidy {

using clang::tidy::torch_tidy::checkCatalog;
using clang::tidy::torch_tidy::findCheck;
using clang::tidy::torch_tidy::precisionName;
using clang::tidy::torch_tidy::Severity;
using clang::tidy::torch_tidy::severityName;
using clang::tidy::torch_tidy::severityOf;

namespace {

/// SARIF's level of a rule's findings: a bug is an error, a hazard a
/// warning, a performance cost a note.
const char *level(Severity S) {
  switch (S) {
  case Severity::Bug:
    return "error";
  case Severity::Hazard:
    return "warning";
  case Severity::Performance:
    return "note";
  }
  llvm_unreachable("a severity without a level");
}

/// CodeQL's problem.severity, which code scanning shows: its level, but
/// "recommendation" for a note.
const char *problemSeverity(Severity S) {
  return S == Severity::Performance ? "recommendation" : level(S);
}

/// A result's level: its rule's, but for compiler errors and warnings as
/// errors (errors) and findings the probe ran cleanly (notes).
const char *level(const Finding &F) {
  if (F.Downgraded)
    return "note";
  if (F.IsError)
    return "error";
  auto Severity = severityOf(F.Check);
  return Severity ? level(*Severity) : "warning";
}

class SarifBuilder {
public:
  explicit SarifBuilder(const SarifOptions &Options)
      : Options(Options), SourceRoot(Options.SourceRoot) {
    // Every rule is described, found or not, so code scanning knows them all.
    for (const auto &Info : checkCatalog())
      ruleIndex(Info.Name.str());
  }

  nlohmann::json build(const std::vector<Finding> &Findings) {
    std::vector<FindingIdentity> Identities = identify(Findings, SourceRoot);
    std::vector<nlohmann::json> All;
    for (size_t I = 0; I < Findings.size(); ++I)
      All.push_back(result(Findings[I], Identities[I],
                           Options.Baseline ? Options.Baseline->Unchanged[I]
                                            : std::optional<bool>()));
    if (Options.Baseline)
      for (const FindingIdentity &Fixed : Options.Baseline->Absent)
        All.push_back(absentResult(Fixed));
    nlohmann::json Driver = {{"name", "torch-tidy"},
                             {"version", TORCH_TIDY_VERSION},
                             {"informationUri", TORCH_TIDY_INFO_URI},
                             {"rules", Rules}};
    nlohmann::json Invocation = invocation(Findings);
    nlohmann::json Run = {{"tool", {{"driver", Driver}}},
                          {"columnKind", "utf16CodeUnits"},
                          {"results", capped(std::move(All), Invocation)}};
    Run["invocations"] = nlohmann::json::array({Invocation});
    if (!SourceRoot.empty())
      Run["originalUriBaseIds"] = {
          {"SRCROOT", {{"uri", "file://" + uriEncode(withSlash(SourceRoot))}}}};
    if (!Options.Category.empty())
      Run["automationDetails"] = {{"id", withSlash(Options.Category)}};
    return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", nlohmann::json::array({Run})}};
  }

  size_t leftOut() const { return LeftOut; }

private:
  /// A path as a URI reference: bytes other than unreserved ones and '/'
  /// are percent-encoded (a space is "%20").
  static std::string uriEncode(llvm::StringRef Path) {
    std::string Out;
    for (unsigned char C : Path) {
      if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '_' || C == '.' ||
          C == '~') {
        Out += C;
        continue;
      }
      Out += '%';
      Out += llvm::hexdigit(C >> 4);
      Out += llvm::hexdigit(C & 15);
    }
    return Out;
  }

  static std::string withSlash(std::string Path) {
    if (Path.empty() || Path.back() != '/')
      Path += '/';
    return Path;
  }

  /// The results GitHub accepts: the most severe Options.MaxResults, in
  /// their order; the others are left out with a notification.
  nlohmann::json capped(std::vector<nlohmann::json> All,
                        nlohmann::json &Invocation) {
    if (All.size() <= Options.MaxResults)
      return All;
    auto Rank = [](const nlohmann::json &Result) {
      std::string Level = Result["level"];
      return Level == "error" ? 0 : Level == "warning" ? 1 : Level == "note" ? 2 : 3;
    };
    std::vector<size_t> Order(All.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Rank(All[A]) < Rank(All[B]);
    });
    Order.resize(Options.MaxResults);
    std::sort(Order.begin(), Order.end());
    LeftOut = All.size() - Options.MaxResults;
    nlohmann::json Kept = nlohmann::json::array();
    for (size_t I : Order)
      Kept.push_back(std::move(All[I]));
    std::string Text =
        std::to_string(LeftOut) + " of " + std::to_string(All.size()) +
        " results are left out: GitHub code scanning rejects a run of more "
        "than " + std::to_string(Options.MaxResults) +
        " results, so only the most severe are written";
    Invocation["toolExecutionNotifications"].push_back(
        {{"level", "warning"},
         {"message", {{"text", Text}}},
         {"descriptor", {{"id", "torch-tidy-results-capped"}}}});
    return Kept;
  }

  nlohmann::json artifact(const std::string &File) const {
    llvm::StringRef Path(File);
    std::string Root = withSlash(SourceRoot);
    if (!SourceRoot.empty() && Path.starts_with(Root))
      return {{"uri", uriEncode(Path.drop_front(Root.size()))},
              {"uriBaseId", "SRCROOT"}};
    return {{"uri", "file://" + uriEncode(File)}};
  }

  /// SARIF counts columns in UTF-16 code units; spans count bytes.
  unsigned utf16Column(const std::string &File, unsigned Offset,
                       unsigned ByteColumn) {
    llvm::StringRef Text = contents(File);
    unsigned LineStart = Offset - std::min(Offset, ByteColumn - 1);
    unsigned Units = 0;
    for (unsigned I = LineStart; I < Offset && I < Text.size(); ++I) {
      unsigned char Byte = Text[I];
      if ((Byte & 0xC0) == 0x80)
        continue; // a continuation byte
      Units += Byte >= 0xF0 ? 2 : 1; // 4-byte sequences are surrogate pairs
    }
    return Units + 1;
  }

  nlohmann::json region(const Span &S) {
    return {{"startLine", S.Line},
            {"startColumn", utf16Column(S.File, S.Offset, S.Column)},
            {"endLine", S.EndLine},
            {"endColumn",
             utf16Column(S.File, S.Offset + S.Length, S.EndColumn)}};
  }

  /// The primary region: the range the diagnostic points at, or its first
  /// character.
  nlohmann::json region(const Span &Begin, const Span *Extent) {
    if (Extent)
      return region(*Extent);
    Span OneCharacter = Begin;
    OneCharacter.Length = 1;
    OneCharacter.EndLine = Begin.Line;
    OneCharacter.EndColumn = Begin.Column + 1;
    return region(OneCharacter);
  }

  /// A span without a file (a compiler error about the command line) has no
  /// physical location: SARIF regions start at line 1.
  nlohmann::json location(const Span &S, const Span *Extent) {
    if (S.File.empty())
      return nlohmann::json::object();
    return {{"physicalLocation",
             {{"artifactLocation", artifact(S.File)},
              {"region", region(S, Extent)}}}};
  }

  unsigned ruleIndex(const std::string &Check) {
    auto [It, Inserted] = RuleIndex.try_emplace(Check, Rules.size());
    if (Inserted)
      Rules.push_back(rule(Check));
    return It->second;
  }

  /// A file whose analysis crashed is also a failure of the tool's run, which
  /// code scanning shows apart from the results.
  nlohmann::json invocation(const std::vector<Finding> &Findings) {
    nlohmann::json Notifications = nlohmann::json::array();
    for (const Finding &F : Findings)
      if (F.Check == CrashCheckName)
        Notifications.push_back(
            {{"level", "error"},
             {"message", {{"text", F.Message}}},
             {"descriptor", {{"id", F.Check}}},
             {"locations", nlohmann::json::array({location(F.Where, nullptr)})}});
    nlohmann::json Invocation = {
        {"executionSuccessful", Notifications.empty()}};
    if (!Notifications.empty())
      Invocation["toolExecutionNotifications"] = std::move(Notifications);
    return Invocation;
  }

  static nlohmann::json rule(const std::string &Check) {
    nlohmann::json Rule = {{"id", Check},
                           {"defaultConfiguration", {{"level", "warning"}}}};
    if (Check == CrashCheckName) {
      const char *Text = "The analysis of the file crashed; the file has no "
                         "findings.";
      Rule["defaultConfiguration"]["level"] = "error";
      Rule["shortDescription"] = {{"text", Text}};
      Rule["fullDescription"] = {{"text", Text}};
      Rule["help"] = {{"text", Text}};
    } else if (const auto *Info = findCheck(Check)) {
      std::string HelpUri = checkDocumentationUri(Check);
      Rule["shortDescription"] = {{"text", Info->Summary.str()}};
      Rule["fullDescription"] = {{"text", Info->Description.str()}};
      Rule["help"] = {{"text", Info->Description.str() + " See " + HelpUri},
                      {"markdown", Info->Description.str() + "\n\n[" + Check +
                                       "](" + HelpUri + ")"}};
      Rule["helpUri"] = HelpUri;
      // Rule metadata as CodeQL writes it, which code scanning reads.
      Rule["defaultConfiguration"]["level"] = level(Info->Level);
      Rule["properties"] = {
          {"tags", nlohmann::json::array({severityName(Info->Level).str(),
                                          Check.substr(0, Check.find('-'))})},
          {"precision", precisionName(Info->Estimate).str()},
          {"problem.severity", problemSeverity(Info->Level)}};
    } else {
      // Compiler diagnostics (clang-diagnostic-*) have no doc page.
      Rule["shortDescription"] = {{"text", "Compiler diagnostic " + Check}};
      Rule["fullDescription"] = {{"text", "A diagnostic of the compiler."}};
      Rule["help"] = {{"text", "A diagnostic of the compiler."}};
    }
    return Rule;
  }

  nlohmann::json fixes(const Finding &F) {
    if (F.Fixes.empty())
      return nlohmann::json::array();
    std::map<std::string, nlohmann::json> ByFile;
    for (const Edit &E : F.Fixes) {
      nlohmann::json &Change = ByFile[E.Where.File];
      if (Change.is_null())
        Change = {{"artifactLocation", artifact(E.Where.File)},
                  {"replacements", nlohmann::json::array()}};
      Change["replacements"].push_back(
          {{"deletedRegion", region(E.Where)},
           {"insertedContent", {{"text", E.Replacement}}}});
    }
    nlohmann::json Changes = nlohmann::json::array();
    for (auto &Entry : ByFile)
      Changes.push_back(std::move(Entry.second));
    return {{{"description", {{"text", "Apply the suggested fix"}}},
             {"artifactChanges", Changes}}};
  }

  /// GitHub's own hash of the primary line (Fingerprint.h), and ours, the
  /// baseline's identity (Baseline.h): both survive edits elsewhere.
  nlohmann::json fingerprints(const Finding &F, const FindingIdentity &Id) {
    nlohmann::json Prints = {{"torchTidyFindingHash/v2", Id.fingerprint()}};
    if (!F.Where.File.empty() && F.Where.Line > 0) {
      auto [It, Inserted] = Hashes.try_emplace(F.Where.File);
      if (Inserted)
        It->second = std::make_unique<LineHashes>(contents(F.Where.File));
      std::string Hash = It->second->forLine(F.Where.Line);
      if (!Hash.empty())
        Prints["primaryLocationLineHash"] = Hash;
    }
    return Prints;
  }

  llvm::StringRef contents(const std::string &File) { return Files.of(File); }

  /// A finding of the baseline that is gone: the rule evaluated there found
  /// nothing ("kind": "pass"). It has a file but no line.
  nlohmann::json absentResult(const FindingIdentity &Fixed) {
    llvm::SmallString<256> File(Fixed.Path);
    if (!llvm::sys::path::is_absolute(File)) {
      File = SourceRoot;
      llvm::sys::path::append(File, Fixed.Path);
    }
    std::string Text = "Fixed: this finding of the baseline is no longer found";
    if (!Fixed.Line.empty())
      Text += " (it was reported on '" + Fixed.Line + "')";
    return {{"ruleId", Fixed.Rule},
            {"ruleIndex", ruleIndex(Fixed.Rule)},
            {"kind", "pass"},
            {"level", "none"},
            {"message", {{"text", Text}}},
            {"locations",
             {{{"physicalLocation",
                {{"artifactLocation", artifact(std::string(File))}}}}}},
            {"baselineState", "absent"},
            {"partialFingerprints",
             {{"torchTidyFindingHash/v2", Fixed.fingerprint()}}}};
  }

  /// A finding that a chain of facts across files decides: one thread flow
  /// from the outermost fact, link by link, to the finding; null for any
  /// other finding.
  nlohmann::json chainFlow(const Finding &F) {
    if (F.ChainLinks < 2 || F.ChainLinks > F.Notes.size())
      return nullptr;
    nlohmann::json Steps = nlohmann::json::array();
    auto Step = [&](const Span &Where, const std::string &Message) {
      nlohmann::json Loc = location(Where, nullptr);
      Loc["message"] = {{"text", Message}};
      Steps.push_back({{"location", std::move(Loc)}});
    };
    for (size_t I = F.Notes.size() - F.ChainLinks; I < F.Notes.size(); ++I)
      Step(F.Notes[I].Where, F.Notes[I].Message);
    Step(F.Where, F.Message);
    return {{"threadFlows", nlohmann::json::array({{{"locations", Steps}}})}};
  }

  nlohmann::json result(const Finding &F, const FindingIdentity &Id,
                        std::optional<bool> Unchanged) {
    nlohmann::json Result = {{"ruleId", F.Check},
                             {"ruleIndex", ruleIndex(F.Check)},
                             {"level", level(F)},
                             {"message", {{"text", F.Message}}},
                             {"locations", nlohmann::json::array()}};
    if (!F.Where.File.empty())
      Result["locations"].push_back(
          location(F.Where, extentAt(F.Where, F.Ranges)));
    nlohmann::json Related = nlohmann::json::array();
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      nlohmann::json Loc = location(F.Notes[I].Where, nullptr);
      Loc["id"] = I;
      Loc["message"] = {{"text", F.Notes[I].Message}};
      Related.push_back(std::move(Loc));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (nlohmann::json Flow = chainFlow(F); !Flow.is_null())
      Result["codeFlows"] = nlohmann::json::array({std::move(Flow)});
    Result["fixes"] = fixes(F);
    Result["partialFingerprints"] = fingerprints(F, Id);
    if (Unchanged)
      Result["baselineState"] = *Unchanged ? "unchanged" : "new";
    if (F.Confirmation)
      Result["properties"] = verdictJson(*F.Confirmation);
    return Result;
  }

  const SarifOptions &Options;
  std::string SourceRoot;
  nlohmann::json Rules = nlohmann::json::array();
  std::map<std::string, unsigned> RuleIndex;
  FileContents Files;
  std::map<std::string, std::unique_ptr<LineHashes>> Hashes;
  size_t LeftOut = 0;
};

} // namespace

size_t writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                  const SarifOptions &Options) {
  SarifBuilder Builder(Options);
  OS << dumpJson(Builder.build(Findings)) << "\n";
  OS.flush();
  return Builder.leftOut();
}

std::string checkDocumentationUri(llvm::StringRef Check) {
  if (!findCheck(Check))
    return "";
  return (TORCH_TIDY_INFO_URI "/blob/main/docs/checks/" + Check + ".md").str();
}

} // namespace torch_tidy
