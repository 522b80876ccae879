//===--- ConfirmationHostileTest.cpp - Plans out, verdicts in, when hostile ===//
//
// Regression tests for what verdicts_fuzzer found (test/fuzz/): verdicts
// files whose fields have the wrong types, and plans of files whose names
// are not UTF-8 or are long.
//
//===----------------------------------------------------------------------===//

#include "Confirmation.h"
#include "TestFiles.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::TempDir;

std::vector<Finding> oneFindingWithAPlan(const TempDir &Dir,
                                         const std::string &Name) {
  Finding F;
  F.Check = "device-mismatch";
  F.Where.File = Dir.file("src/" + Name);
  F.Where.Line = 3;
  F.Where.Column = 7;
  F.Plan = json{{"format", "torch-tidy-plan"}, {"version", 1}};
  std::vector<Finding> Findings = {F};
  namePlans(Findings, Dir.path());
  return Findings;
}

std::string planId(const Finding &F) { return F.Plan->at("id"); }

TEST(HostileVerdicts, FieldsOfTheWrongTypeAreNoCrash) {
  TempDir Dir;
  std::vector<Finding> Findings = oneFindingWithAPlan(Dir, "a.cpp");
  std::string Verdicts = Dir.write(
      "bad-format.json", R"({"format": 5, "verdicts": []})");
  llvm::Error Err = llvm::Error::success();
  ASSERT_NO_THROW(Err = mergeVerdicts(Findings, Verdicts, false));
  EXPECT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));

  // An entry's fields of the wrong type make the file invalid (the schema of
  // runtime/Verdict.h), with an error naming the field, not a crash.
  Verdicts = Dir.write("bad-fields.json",
                       R"({"format": "torch-tidy-verdicts", "version": 1, )"
                       R"("verdicts": [{"id": ")" + planId(Findings[0]) +
                           R"(", "verdict": 7, "device": null,)"
                           R"( "message": ["x"], "reason": {}}]})");
  ASSERT_NO_THROW(Err = mergeVerdicts(Findings, Verdicts, false));
  ASSERT_TRUE(bool(Err));
  EXPECT_NE(llvm::toString(std::move(Err)).find("/verdicts/0/"),
            std::string::npos);
  EXPECT_FALSE(Findings[0].Confirmation);
}

TEST(HostileVerdicts, PlanOfAFileNamedInLatin1RoundTrips) {
  TempDir Dir;
  std::vector<Finding> Findings = oneFindingWithAPlan(Dir, "caf\xe9.cpp");
  // The id is what the probe copies into its verdict: UTF-8.
  EXPECT_EQ(planId(Findings[0]), "src/caf\xEF\xBF\xBD.cpp:3:7:device-mismatch");
  ASSERT_NO_THROW(llvm::cantFail(writePlans(Findings, Dir.file("plans"))));
  ASSERT_EQ(Dir.list("plans").size(), 1u);
  json Written = json::parse(test::readFile(
      Dir.file("plans/" + Dir.list("plans")[0])));
  EXPECT_EQ(Written["id"], planId(Findings[0]));

  std::string Verdicts = Dir.write(
      "verdicts.json", json{{"format", "torch-tidy-verdicts"},
                            {"version", 1},
                            {"verdicts", {{{"id", Written["id"]},
                                           {"verdict", "confirmed"}}}}}
                           .dump());
  llvm::cantFail(mergeVerdicts(Findings, Verdicts, false));
  ASSERT_TRUE(Findings[0].Confirmation);
  EXPECT_EQ(Findings[0].Confirmation->Outcome, "confirmed");
}

TEST(HostileVerdicts, PlanOfALongPathGetsAShortFileName) {
  // The plan's file is named after its id; one path component holds at most
  // 255 bytes.
  TempDir Dir;
  std::vector<Finding> Findings =
      oneFindingWithAPlan(Dir, std::string(300, 'a') + ".cpp");
  llvm::Error Err = writePlans(Findings, Dir.file("plans"));
  ASSERT_FALSE(bool(Err)) << llvm::toString(std::move(Err));
  std::vector<std::string> Names = Dir.list("plans");
  ASSERT_EQ(Names.size(), 1u);
  EXPECT_LE(Names[0].size(), 255u);
  json Written = json::parse(test::readFile(Dir.file("plans/" + Names[0])));
  EXPECT_EQ(Written["id"], planId(Findings[0]));
}

} // namespace
} // namespace torch_tidy
