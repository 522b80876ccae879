//===--- ConfirmationTest.cpp - Verdicts merged into every output format --===//

#include "Confirmation.h"
#include "Output.h"
#include "TestFiles.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::spanAt;
using test::TempDir;

/// Three findings of one file: one with a plan, one whose operation is not
/// replayable, one of a rule that records no plans.
class ConfirmationTest : public ::testing::Test {
protected:
  void SetUp() override {
    File = Dir.write("src/train.cpp", "a\nb\nc\n");
    Finding Planned = finding("device-mismatch", 0);
    Planned.Plan = json{{"id", "src/train.cpp:1:1:device-mismatch"}};
    Finding NotReplayable = finding("device-mismatch", 2);
    NotReplayable.OperationNotReplayable = true;
    Findings = {Planned, NotReplayable, finding("device-from-blob", 4)};
  }

  Finding finding(const std::string &Check, unsigned Offset) {
    Finding F;
    F.Check = Check;
    F.Message = "a finding";
    F.Where = spanAt(File, Offset);
    return F;
  }

  std::string verdicts(const json &Items) {
    return Dir.write("verdicts.json", json{{"format", "torch-tidy-verdicts"},
                                           {"version", 1},
                                           {"verdicts", Items}}
                                          .dump());
  }

  llvm::Error merge(const std::string &VerdictsFile, bool Strict = false) {
    return mergeVerdicts(Findings, VerdictsFile, Strict);
  }

  TempDir Dir;
  std::string File;
  std::vector<Finding> Findings;
};

TEST_F(ConfirmationTest, NotReplayableIsInconclusiveInEveryFormat) {
  ASSERT_FALSE(merge(verdicts(json::array())));
  ASSERT_TRUE(Findings[1].Confirmation);
  EXPECT_EQ(Findings[1].Confirmation->Outcome, "inconclusive");
  EXPECT_EQ(Findings[1].Confirmation->Reason, "operation not replayable");

  std::string Text, Json, Sarif;
  llvm::raw_string_ostream TextOS(Text), JsonOS(Json), SarifOS(Sarif);
  writeText(TextOS, {Findings[1]}, /*UseColor=*/false);
  writeJson(JsonOS, {Findings[1]});
  writeSarif(SarifOS, {Findings[1]}, Dir.path());
  EXPECT_NE(Text.find("a finding [device-mismatch,bug] inconclusive: operation "
                      "not replayable"),
            std::string::npos)
      << Text;
  EXPECT_EQ(json::parse(Json)[0]["verdict"],
            json({{"verdict", "inconclusive"},
                  {"reason", "operation not replayable"}}));
  EXPECT_EQ(json::parse(Sarif)["runs"][0]["results"][0]["properties"]["reason"],
            "operation not replayable");
}

TEST_F(ConfirmationTest, ARuleWithoutPlansSaysSo) {
  ASSERT_FALSE(merge(verdicts(json::array())));
  EXPECT_EQ(Findings[2].Confirmation->Reason, "no replay plan for this finding");
  EXPECT_FALSE(Findings[0].Confirmation) << "no verdict for its plan";
}

TEST_F(ConfirmationTest, AVerdictIsAttachedByPlanIdWithoutItsFile) {
  ASSERT_FALSE(merge(verdicts({{{"id", "src/train.cpp:1:1:device-mismatch"},
                                {"file", "/tmp/plans/x.json"},
                                {"verdict", "not-reproduced"},
                                {"device", "cuda:0 NVIDIA H200"},
                                {"message", "ran clean"}}})));
  ASSERT_TRUE(Findings[0].Confirmation);
  EXPECT_EQ(Findings[0].Confirmation->Device, "cuda:0 NVIDIA H200");
  EXPECT_EQ(Findings[0].Confirmation->File, "");
  EXPECT_TRUE(Findings[0].Downgraded);
}

TEST_F(ConfirmationTest, StrictDropsWhatRanClean) {
  ASSERT_FALSE(merge(verdicts({{{"id", "src/train.cpp:1:1:device-mismatch"},
                                {"verdict", "not-reproduced"}}}),
                     /*Strict=*/true));
  ASSERT_EQ(Findings.size(), 2u);
  EXPECT_EQ(Findings[0].Check, "device-mismatch");
  EXPECT_TRUE(Findings[0].OperationNotReplayable);
}

TEST_F(ConfirmationTest, AMalformedVerdictIsOneErrorWithItsPointer) {
  llvm::Error Err = merge(verdicts({{{"id", "x"}, {"verdict", "maybe"}}}));
  ASSERT_TRUE(bool(Err));
  std::string Message = llvm::toString(std::move(Err));
  EXPECT_NE(Message.find("verdicts.json' is not a torch-tidy verdicts file: "
                         "/verdicts/0/verdict: must be confirmed"),
            std::string::npos)
      << Message;
}

TEST_F(ConfirmationTest, MalformedJsonIsNamedSo) {
  llvm::Error Err = merge(Dir.write("broken.json", "{\"format\": "));
  ASSERT_TRUE(bool(Err));
  EXPECT_NE(llvm::toString(std::move(Err)).find("malformed JSON"),
            std::string::npos);
}

} // namespace
} // namespace torch_tidy
