//===--- SarifGateTest.cpp - SARIF for code scanning and the baseline -----===//

#include "Fingerprint.h"
#include "Output.h"
#include "TestFiles.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::offsetOf;
using test::spanAt;
using test::TempDir;

const char GatedCode[] = "void f(torch::Tensor x, torch::Device d) {\n"
                    "  x.to(d);\n"
                    "  x.to(d);\n"
                    "}\n";

class SarifGateTest : public ::testing::Test {
protected:
  void SetUp() override {
    File = Dir.write("src/a.cpp", GatedCode);
    for (unsigned I = 0; I < 2; ++I) {
      Finding F;
      F.Check = "device-discarded-to";
      F.Message = "result of 'to' is discarded";
      F.Where = spanAt(File, offsetOf(GatedCode, "x.to(d)", I));
      Findings.push_back(F);
    }
    Options.SourceRoot = Dir.path();
  }

  json sarif(const std::vector<Finding> &Fs, size_t *LeftOut = nullptr) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    size_t Left = writeSarif(OS, Fs, Options);
    if (LeftOut)
      *LeftOut = Left;
    return json::parse(Out)["runs"][0];
  }

  TempDir Dir;
  std::string File;
  std::vector<Finding> Findings;
  SarifOptions Options;
};

TEST_F(SarifGateTest, PrimaryLocationLineHashIsGitHubs) {
  json Run = sarif(Findings);
  LineHashes Hashes(GatedCode);
  for (unsigned I = 0; I < 2; ++I) {
    const json &R = Run["results"][I];
    unsigned Line = R["locations"][0]["physicalLocation"]["region"]["startLine"];
    EXPECT_EQ(R["partialFingerprints"]["primaryLocationLineHash"],
              Hashes.forLine(Line));
  }
  // The two lines are the same text, but their windows of 100 characters
  // are not: the second runs into "}" and the end of the file.
  EXPECT_NE(Run["results"][0]["partialFingerprints"]["primaryLocationLineHash"],
            Run["results"][1]["partialFingerprints"]["primaryLocationLineHash"]);
}

TEST_F(SarifGateTest, PrimaryLocationLineHashOfAOneLineFile) {
  // The value worked out by hand for "a\n" (FingerprintTest.cpp).
  std::string One = Dir.write("one.cpp", "a\n");
  Finding F;
  F.Check = "device-discarded-to";
  F.Message = "m";
  F.Where = spanAt(One, 0);
  EXPECT_EQ(sarif({F})["results"][0]["partialFingerprints"]
                     ["primaryLocationLineHash"],
            "243cbaa4685aab12:1");
}

TEST_F(SarifGateTest, NoBaselineStateWithoutABaselineAndNoCategory) {
  json Run = sarif(Findings);
  EXPECT_FALSE(Run["results"][0].contains("baselineState"));
  EXPECT_FALSE(Run.contains("automationDetails"));
}

TEST_F(SarifGateTest, CategoryEndsInASlashAsGitHubsUploadWritesIt) {
  Options.Category = "torch-tidy/linux";
  EXPECT_EQ(sarif(Findings)["automationDetails"]["id"], "torch-tidy/linux/");
  Options.Category = "torch-tidy/";
  EXPECT_EQ(sarif(Findings)["automationDetails"]["id"], "torch-tidy/");
}

TEST_F(SarifGateTest, BaselineStatesAndAbsentResults) {
  std::vector<FindingIdentity> Ids = identify(Findings, Dir.path());
  FindingIdentity Gone = Ids[1];
  Gone.Rule = "device-loop-copy-to";
  Gone.Line = "for (auto t : batch)";
  BaselineComparison Comparison{{true, false}, {Gone}};
  Options.Baseline = &Comparison;
  json Run = sarif(Findings);
  ASSERT_EQ(Run["results"].size(), 3u);
  EXPECT_EQ(Run["results"][0]["baselineState"], "unchanged");
  EXPECT_EQ(Run["results"][1]["baselineState"], "new");
  const json &Absent = Run["results"][2];
  EXPECT_EQ(Absent["baselineState"], "absent");
  EXPECT_EQ(Absent["ruleId"], "device-loop-copy-to");
  EXPECT_EQ(Run["tool"]["driver"]["rules"][Absent["ruleIndex"].get<unsigned>()]
               ["id"],
            "device-loop-copy-to");
  EXPECT_EQ(Absent["kind"], "pass");
  EXPECT_EQ(Absent["level"], "none");
  const json &Artifact = Absent["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(Artifact["uri"], "src/a.cpp");
  EXPECT_EQ(Artifact["uriBaseId"], "SRCROOT");
  EXPECT_FALSE(Absent["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_NE(Absent["message"]["text"].get<std::string>().find("for (auto t : batch)"),
            std::string::npos);
  EXPECT_EQ(Absent["partialFingerprints"]["torchTidyFindingHash/v2"],
            Gone.fingerprint());
}

TEST_F(SarifGateTest, ResultsBeyondTheLimitAreLeftOutLeastSevereFirst) {
  Finding Error = Findings[1];
  Error.IsError = Error.IsWarningAsError = true;
  Finding Note = Findings[0];
  Note.Downgraded = true;
  Finding Hazard = Findings[0];
  Hazard.Check = "device-hardcoded";
  std::vector<Finding> Three = {Note, Hazard, Error};
  Options.MaxResults = 2;
  size_t LeftOut = 0;
  json Run = sarif(Three, &LeftOut);
  EXPECT_EQ(LeftOut, 1u);
  ASSERT_EQ(Run["results"].size(), 2u);
  // The note goes; the others keep their order.
  EXPECT_EQ(Run["results"][0]["level"], "warning");
  EXPECT_EQ(Run["results"][1]["level"], "error");
  const json &Note0 = Run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(Note0["level"], "warning");
  EXPECT_EQ(Note0["descriptor"]["id"], "torch-tidy-results-capped");
  EXPECT_NE(Note0["message"]["text"].get<std::string>().find("1 of 3 results"),
            std::string::npos);
  EXPECT_TRUE(Run["invocations"][0]["executionSuccessful"]);
  EXPECT_EQ(GitHubMaxResultsPerRun, 25000u);
}

} // namespace
} // namespace torch_tidy
