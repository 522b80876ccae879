//===--- OutputTest.cpp - Text, JSON, SARIF and GitHub output -------------===//

#include "CheckCatalog.h"
#include "Output.h"
#include "TestFiles.h"
#include "Version.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::offsetOf;
using test::spanAt;
using test::TempDir;

/// A verdict as the probe reports one.
plan::Verdict verdict(std::string Outcome, std::string Device,
                      std::string Message) {
  plan::Verdict V;
  V.Outcome = std::move(Outcome);
  V.Device = std::move(Device);
  V.Message = std::move(Message);
  return V;
}

const char OutputSource[] = R"(#include <torch/torch.h>

void f(torch::Tensor x, torch::Device d) {
  x.to(d);
  auto y = x * 2;
  torch::load(y, "ckpt.pt");
}
)";

/// Findings as the driver would build them from the checks' diagnostics.
class OutputTest : public ::testing::Test {
protected:
  void SetUp() override {
    File = Dir.write("src/train.cpp", OutputSource);
    std::string Text = OutputSource;
    unsigned Call = offsetOf(Text, "x.to(d)");

    Finding Discarded;
    Discarded.Check = "device-discarded-to";
    Discarded.Message = "result of 'to' is discarded: it returns a new tensor "
                        "and leaves 'x' unchanged, on its current device";
    Discarded.Where = spanAt(File, Call);
    Discarded.Ranges.push_back(spanAt(File, Call, 7));
    Discarded.Notes.push_back(
        {spanAt(File, offsetOf(Text, "x * 2")),
         "'x' is used here, still where it was before the discarded 'to'",
         {}});
    Discarded.Fixes.push_back({spanAt(File, Call, 0), "x = "});
    Findings.push_back(Discarded);

    Finding Load;
    Load.Check = "device-load-without-device";
    Load.Message = "'torch::load' without a device restores every tensor to "
                   "the device it was saved from; pass the device to load to";
    Load.Where = spanAt(File, offsetOf(Text, "torch::load"));
    Findings.push_back(Load);
  }

  std::string toJson(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeJson(OS, Fs);
    return Out;
  }
  std::string toSarif(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeSarif(OS, Fs, Dir.path());
    return Out;
  }
  std::string toText(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeText(OS, Fs, /*UseColor=*/false);
    return Out;
  }

  std::string toGitHub(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeGitHub(OS, Fs, Dir.path());
    return Out;
  }

  TempDir Dir;
  std::string File;
  std::vector<Finding> Findings;
};

// --- GitHub Actions ----------------------------------------------------------

TEST_F(OutputTest, GitHubAnnotatesEachFindingAfterItsText) {
  std::string Out = toGitHub(Findings);
  EXPECT_NE(Out.find(toText({Findings[0]})), std::string::npos) << Out;
  EXPECT_NE(Out.find("::error file=src/train.cpp,line=4,col=3,endLine=4,"
                     "endColumn=10,title=device-discarded-to::result of 'to' "
                     "is discarded: it returns a new tensor and leaves 'x' "
                     "unchanged, on its current device%0Anote: "
                     "src/train.cpp:5: 'x' is used here"),
            std::string::npos)
      << Out;
  // A hazard is a warning.
  EXPECT_NE(Out.find("::warning file=src/train.cpp,line=6,col=3,"),
            std::string::npos)
      << Out;
}

TEST_F(OutputTest, GitHubEscapesWorkflowCommands) {
  Finding F = Findings[1];
  F.Message = "50% of it\r\nsecond line";
  F.Check = "clang-diagnostic-a:b,c";
  std::string Out = toGitHub({F});
  EXPECT_NE(Out.find("title=clang-diagnostic-a%3Ab%2Cc::50%25 of it%0D%0Asecond line\n"),
            std::string::npos)
      << Out;
}

TEST_F(OutputTest, GitHubSummaryCountsByRuleAndSeverity) {
  std::vector<Finding> Fs = {Findings[0], Findings[0], Findings[1]};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeGitHubSummary(OS, Fs);
  EXPECT_NE(Out.find("| [`device-discarded-to`](" +
                     checkDocumentationUri("device-discarded-to") +
                     ") | bug | 2 |\n| [`device-load-without-device`]("),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(") | hazard | 1 |\n| **total** | | **3** |"),
            std::string::npos)
      << Out;
}

// --- text ------------------------------------------------------------------

TEST_F(OutputTest, TextIsClangTidysFormat) {
  std::string Out = toText(Findings);
  EXPECT_NE(Out.find(File + ":4:3: warning: result of 'to' is discarded: it "
                            "returns a new tensor and leaves 'x' unchanged, on "
                            "its current device [device-discarded-to,bug]\n"
                            "    4 |   x.to(d);\n"
                            "      |   ^~~~~~~\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(File + ":5:12: note: 'x' is used here, still where it was "
                            "before the discarded 'to'\n"
                            "    5 |   auto y = x * 2;\n"
                            "      |            ^\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(File + ":6:3: warning: 'torch::load' without a device "
                            "restores every tensor to the device it was saved "
                            "from; pass the device to load to "
                            "[device-load-without-device,hazard]\n"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("\x1b["), std::string::npos) << "no colors asked for";
}

TEST_F(OutputTest, TextMarksWarningsAsErrors) {
  Findings[0].IsError = Findings[0].IsWarningAsError = true;
  std::string Out = toText({Findings[0]});
  EXPECT_NE(Out.find(File + ":4:3: error: result of 'to' is discarded"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("[device-discarded-to,bug,-warnings-as-errors]"),
            std::string::npos)
      << Out;
}

TEST_F(OutputTest, TextAppendsTheVerdict) {
  Findings[0].Confirmation =
      verdict("confirmed", "cuda:0 NVIDIA H200", "tensor still on cpu");
  std::string Out = toText({Findings[0]});
  EXPECT_NE(Out.find("[device-discarded-to,bug] confirmed on cuda:0 NVIDIA "
                     "H200: tensor still on cpu\n"),
            std::string::npos)
      << Out;
}

TEST_F(OutputTest, TextOfNothingIsEmpty) { EXPECT_EQ(toText({}), ""); }

// --- JSON ------------------------------------------------------------------

TEST_F(OutputTest, JsonHasEveryField) {
  json Out = json::parse(toJson(Findings));
  ASSERT_TRUE(Out.is_array());
  ASSERT_EQ(Out.size(), 2u);
  const json &F = Out[0];
  EXPECT_EQ(F["file"], File);
  EXPECT_EQ(F["line"], 4);
  EXPECT_EQ(F["column"], 3);
  EXPECT_EQ(F["end_line"], 4); // the end of its range, 'x.to(d)'
  EXPECT_EQ(F["end_column"], 10);
  EXPECT_EQ(F["check"], "device-discarded-to");
  EXPECT_EQ(F["severity"], "warning");
  EXPECT_EQ(F["rule_severity"], "bug");
  EXPECT_EQ(Out[1]["rule_severity"], "hazard");
  EXPECT_EQ(F["message"], Findings[0].Message);
  ASSERT_EQ(F["notes"].size(), 1u);
  EXPECT_EQ(F["notes"][0]["file"], File);
  EXPECT_EQ(F["notes"][0]["line"], 5);
  EXPECT_EQ(F["notes"][0]["column"], 12);
  EXPECT_EQ(F["notes"][0]["end_line"], 5); // no range: the point itself
  EXPECT_EQ(F["notes"][0]["end_column"], 12);
  EXPECT_EQ(F["notes"][0]["message"], Findings[0].Notes[0].Message);
  ASSERT_EQ(F["fixes"].size(), 1u);
  const json &Fix = F["fixes"][0];
  EXPECT_EQ(Fix["file"], File);
  EXPECT_EQ(Fix["offset"], Findings[0].Where.Offset);
  EXPECT_EQ(Fix["length"], 0);
  EXPECT_EQ(Fix["line"], 4);
  EXPECT_EQ(Fix["column"], 3);
  EXPECT_EQ(Fix["end_line"], 4);
  EXPECT_EQ(Fix["end_column"], 3);
  EXPECT_EQ(Fix["replacement"], "x = ");
  EXPECT_FALSE(F.contains("verdict"));

  EXPECT_TRUE(Out[1]["notes"].is_array());
  EXPECT_TRUE(Out[1]["notes"].empty());
  EXPECT_TRUE(Out[1]["fixes"].empty());
}

TEST_F(OutputTest, JsonNoteEndsWhereItsRangeEnds) {
  Findings[0].Notes[0].Ranges.push_back(
      spanAt(File, offsetOf(OutputSource, "x * 2"), 5));
  json Note = json::parse(toJson(Findings))[0]["notes"][0];
  EXPECT_EQ(Note["end_line"], 5);
  EXPECT_EQ(Note["end_column"], 17);
}

TEST_F(OutputTest, JsonLinesAreTheArraysObjects) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJsonLines(OS, Findings);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Out).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  json Array = json::parse(toJson(Findings));
  ASSERT_EQ(Lines.size(), Array.size()) << Out;
  for (size_t I = 0; I < Lines.size(); ++I)
    EXPECT_EQ(json::parse(Lines[I].str()), Array[I]);
  EXPECT_TRUE(llvm::StringRef(Out).ends_with("\n"));
}

TEST_F(OutputTest, JsonSeverityAndVerdict) {
  Findings[0].IsError = Findings[0].IsWarningAsError = true;
  Findings[1].Confirmation = verdict("not-reproduced", "meta", "");
  json Out = json::parse(toJson(Findings));
  EXPECT_EQ(Out[0]["severity"], "error");
  EXPECT_EQ(Out[1]["verdict"]["verdict"], "not-reproduced");
  EXPECT_EQ(Out[1]["verdict"]["device"], "meta");
}

TEST_F(OutputTest, JsonOfNothingIsAnEmptyArray) {
  json Out = json::parse(toJson({}));
  EXPECT_TRUE(Out.is_array());
  EXPECT_TRUE(Out.empty());
}

TEST_F(OutputTest, JsonEscapesMessages) {
  Findings[1].Message = "quote \" backslash \\ tab \t and \xC3\xA9";
  json Out = json::parse(toJson(Findings));
  EXPECT_EQ(Out[1]["message"], Findings[1].Message);
}

// --- SARIF -----------------------------------------------------------------

TEST_F(OutputTest, SarifHeaderAndTool) {
  json Out = json::parse(toSarif(Findings));
  EXPECT_EQ(Out["version"], "2.1.0");
  EXPECT_EQ(Out["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(Out["runs"].size(), 1u);
  const json &Driver = Out["runs"][0]["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "torch-tidy");
  EXPECT_EQ(Driver["version"], TORCH_TIDY_VERSION);
  EXPECT_EQ(Driver["informationUri"], TORCH_TIDY_INFO_URI);
  EXPECT_EQ(Out["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"],
            "file://" + Dir.path() + "/");
}

TEST_F(OutputTest, SarifDescribesEveryRuleEvenWithoutFindings) {
  json Out = json::parse(toSarif({}));
  const json &Rules = Out["runs"][0]["tool"]["driver"]["rules"];
  auto Catalog = clang::tidy::torch_tidy::checkCatalog();
  ASSERT_EQ(Rules.size(), Catalog.size());
  for (size_t I = 0; I < Catalog.size(); ++I) {
    const json &Rule = Rules[I];
    SCOPED_TRACE(Rule.dump());
    EXPECT_EQ(Rule["id"], Catalog[I].Name.str());
    EXPECT_EQ(Rule["shortDescription"]["text"], Catalog[I].Summary.str());
    EXPECT_EQ(Rule["fullDescription"]["text"], Catalog[I].Description.str());
    EXPECT_FALSE(Rule["help"]["text"].get<std::string>().empty());
    EXPECT_FALSE(Rule["help"]["markdown"].get<std::string>().empty());
    EXPECT_EQ(Rule["helpUri"], std::string(TORCH_TIDY_INFO_URI) +
                                   "/blob/main/docs/checks/" +
                                   Catalog[I].Name.str() + ".md");
    // CodeQL's rule metadata, from Checks.def.
    using clang::tidy::torch_tidy::Severity;
    Severity Level = Catalog[I].Level;
    EXPECT_EQ(Rule["defaultConfiguration"]["level"],
              Level == Severity::Bug      ? "error"
              : Level == Severity::Hazard ? "warning"
                                          : "note");
    EXPECT_EQ(Rule["properties"]["problem.severity"],
              Level == Severity::Bug      ? "error"
              : Level == Severity::Hazard ? "warning"
                                          : "recommendation");
    EXPECT_EQ(Rule["properties"]["tags"],
              json::array({severityName(Level).str(),
                           Catalog[I].Name.split('-').first.str()}));
    EXPECT_EQ(Rule["properties"]["precision"],
              precisionName(Catalog[I].Estimate).str());
  }
  EXPECT_TRUE(Out["runs"][0]["results"].is_array());
  EXPECT_TRUE(Out["runs"][0]["results"].empty());
}

TEST_F(OutputTest, SarifResult) {
  json Out = json::parse(toSarif(Findings));
  const json &Run = Out["runs"][0];
  ASSERT_EQ(Run["results"].size(), 2u);
  const json &R = Run["results"][0];
  EXPECT_EQ(R["ruleId"], "device-discarded-to");
  ASSERT_TRUE(R["ruleIndex"].is_number_unsigned());
  EXPECT_EQ(Run["tool"]["driver"]["rules"][R["ruleIndex"].get<unsigned>()]["id"],
            "device-discarded-to");
  EXPECT_EQ(R["level"], "error"); // a bug
  EXPECT_EQ(Run["results"][1]["level"], "warning"); // a hazard
  EXPECT_EQ(R["message"]["text"], Findings[0].Message);

  const json &Physical = R["locations"][0]["physicalLocation"];
  EXPECT_EQ(Physical["artifactLocation"]["uri"], "src/train.cpp");
  EXPECT_EQ(Physical["artifactLocation"]["uriBaseId"], "SRCROOT");
  const json &Region = Physical["region"];
  EXPECT_EQ(Region["startLine"], 4);
  EXPECT_EQ(Region["startColumn"], 3);
  EXPECT_EQ(Region["endLine"], 4);
  EXPECT_EQ(Region["endColumn"], 10); // the end of "x.to(d)"

  ASSERT_EQ(R["relatedLocations"].size(), 1u);
  const json &Note = R["relatedLocations"][0];
  EXPECT_EQ(Note["message"]["text"], Findings[0].Notes[0].Message);
  EXPECT_EQ(Note["physicalLocation"]["artifactLocation"]["uri"],
            "src/train.cpp");
  EXPECT_EQ(Note["physicalLocation"]["region"]["startLine"], 5);
  EXPECT_EQ(Note["physicalLocation"]["region"]["startColumn"], 12);

  ASSERT_EQ(R["fixes"].size(), 1u);
  const json &Change = R["fixes"][0]["artifactChanges"][0];
  EXPECT_FALSE(R["fixes"][0]["description"]["text"].get<std::string>().empty());
  EXPECT_EQ(Change["artifactLocation"]["uri"], "src/train.cpp");
  EXPECT_EQ(Change["artifactLocation"]["uriBaseId"], "SRCROOT");
  const json &Replacement = Change["replacements"][0];
  EXPECT_EQ(Replacement["deletedRegion"]["startLine"], 4);
  EXPECT_EQ(Replacement["deletedRegion"]["startColumn"], 3);
  EXPECT_EQ(Replacement["deletedRegion"]["endLine"], 4);
  EXPECT_EQ(Replacement["deletedRegion"]["endColumn"], 3);
  EXPECT_EQ(Replacement["insertedContent"]["text"], "x = ");

  // Without a range, the region is the reported character.
  const json &Load = Run["results"][1];
  const json &LoadRegion = Load["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(LoadRegion["startLine"], 6);
  EXPECT_EQ(LoadRegion["startColumn"], 3);
  EXPECT_EQ(LoadRegion["endLine"], 6);
  EXPECT_EQ(LoadRegion["endColumn"], 4);
  EXPECT_FALSE(Load.contains("relatedLocations"));
  EXPECT_TRUE(Load["fixes"].empty());
  EXPECT_FALSE(Load["partialFingerprints"]["torchTidyFindingHash/v2"]
                   .get<std::string>()
                   .empty());
}

TEST_F(OutputTest, SarifCompilerErrorsGetARuleToo) {
  Finding Error;
  Error.Check = "clang-diagnostic-error";
  Error.Message = "use of undeclared identifier 'q'";
  Error.IsError = true;
  Error.Where = spanAt(File, 30);
  json Out = json::parse(toSarif({Error}));
  const json &Run = Out["runs"][0];
  const json &R = Run["results"][0];
  EXPECT_EQ(R["level"], "error");
  const json &Rule = Run["tool"]["driver"]["rules"][R["ruleIndex"].get<unsigned>()];
  EXPECT_EQ(Rule["id"], "clang-diagnostic-error");
  EXPECT_TRUE(Rule.contains("shortDescription"));
  EXPECT_TRUE(Rule.contains("fullDescription"));
  EXPECT_TRUE(Rule.contains("help"));
}

TEST_F(OutputTest, SarifPathOutsideTheSourceRootIsAFileUri) {
  Findings[1].Where.File = "/usr/include/outside.h";
  json Out = json::parse(toSarif(Findings));
  const json &Artifact =
      Out["runs"][0]["results"][1]["locations"][0]["physicalLocation"]
         ["artifactLocation"];
  EXPECT_EQ(Artifact["uri"], "file:///usr/include/outside.h");
  EXPECT_FALSE(Artifact.contains("uriBaseId"));
}

TEST_F(OutputTest, SarifAVerdictIsAProperty) {
  Findings[0].Confirmation =
      verdict("confirmed", "cuda:0 NVIDIA H200", "tensor still on cpu");
  json Out = json::parse(toSarif(Findings));
  const json &Props = Out["runs"][0]["results"][0]["properties"];
  EXPECT_EQ(Props["verdict"], "confirmed");
  EXPECT_EQ(Props["device"], "cuda:0 NVIDIA H200");
}

std::vector<std::string> fingerprints(const json &Sarif) {
  std::vector<std::string> Out;
  for (const json &R : Sarif["runs"][0]["results"])
    Out.push_back(
        R["partialFingerprints"]["torchTidyFindingHash/v2"].get<std::string>());
  return Out;
}

TEST_F(OutputTest, SarifFingerprintsAreStableAcrossRuns) {
  auto First = fingerprints(json::parse(toSarif(Findings)));
  auto Second = fingerprints(json::parse(toSarif(Findings)));
  ASSERT_EQ(First.size(), 2u);
  EXPECT_EQ(First, Second);
  EXPECT_NE(First[0], First[1]);
}

TEST_F(OutputTest, SarifFingerprintsSurviveALineInsertedAbove) {
  auto Before = fingerprints(json::parse(toSarif(Findings)));

  // The same code, two lines lower, as the next commit would have it.
  std::string Shifted = std::string("// a comment\n#include <vector>\n") + OutputSource;
  Dir.write("src/train.cpp", Shifted);
  std::vector<Finding> Moved = Findings;
  Moved[0].Where = spanAt(File, offsetOf(Shifted, "x.to(d)"));
  Moved[0].Ranges = {spanAt(File, offsetOf(Shifted, "x.to(d)"), 7)};
  Moved[0].Notes[0].Where = spanAt(File, offsetOf(Shifted, "x * 2"));
  Moved[0].Fixes[0].Where = spanAt(File, offsetOf(Shifted, "x.to(d)"));
  Moved[1].Where = spanAt(File, offsetOf(Shifted, "torch::load"));
  json Out = json::parse(toSarif(Moved));
  EXPECT_EQ(Out["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
               ["region"]["startLine"],
            6);
  EXPECT_EQ(fingerprints(Out), Before);
}

TEST_F(OutputTest, SarifFingerprintsTellIdenticalLinesApart) {
  std::string Twice = "void f(torch::Tensor x) {\n  x.cuda();\n  x.cuda();\n}\n";
  std::string Path = Dir.write("src/twice.cpp", Twice);
  std::vector<Finding> Fs(2);
  for (unsigned I = 0; I < 2; ++I) {
    Fs[I].Check = "device-discarded-to";
    Fs[I].Message = "same";
    Fs[I].Where = spanAt(Path, offsetOf(Twice, "x.cuda", I));
  }
  auto Prints = fingerprints(json::parse(toSarif(Fs)));
  EXPECT_NE(Prints[0], Prints[1]);
}

} // namespace
} // namespace torch_tidy
