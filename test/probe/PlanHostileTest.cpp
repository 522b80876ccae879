//===--- PlanHostileTest.cpp - The validator on hostile plans -------------===//
//
// Regression tests for what plan_fuzzer found (test/fuzz/): an error's path
// is a JSON pointer into the plan even when a key holds '/' or '~', and an
// error is one line even when a key or a value holds a line break.
//
//===----------------------------------------------------------------------===//

#include "runtime/Plan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using nlohmann::json;
using namespace torch_tidy::plan;

namespace {

json planWithModuleMember(const std::string &Member) {
  json Plan = json::parse(R"({
    "format": "torch-tidy-plan", "version": 1, "id": "x", "check": "c",
    "steps": [{"id": "t", "op": "factory", "fn": "zeros", "sizes": [1]},
              {"id": "m", "op": "module", "parameters": {}}],
    "expect": {"kind": "device-mismatch", "step": 0}})");
  Plan["steps"][1]["parameters"][Member] = "t";
  return Plan;
}

TEST(PlanHostile, ErrorPathEscapesSlashAndTilde) {
  json Plan = planWithModuleMember("w/1~");
  auto Error = validate(Plan);
  ASSERT_TRUE(Error);
  EXPECT_EQ(Error->Path, "/steps/1/parameters/w~11~0");
  EXPECT_TRUE(Plan.contains(json::json_pointer(Error->Path)));
}

TEST(PlanHostile, UnknownKeyWithASlashIsAPointerToIt) {
  json Plan = planWithModuleMember("w");
  Plan["a/b"] = 1;
  auto Error = validate(Plan);
  ASSERT_TRUE(Error);
  EXPECT_EQ(Error->Path, "/a~1b");
  EXPECT_TRUE(Plan.contains(json::json_pointer(Error->Path)));
}

TEST(PlanHostile, ErrorIsOneLine) {
  json Plan = planWithModuleMember("w");
  Plan["steps"][1]["op"] = "mod\nule";
  auto Error = validate(Plan);
  ASSERT_TRUE(Error);
  EXPECT_EQ(Error->str().find('\n'), std::string::npos) << Error->str();
  EXPECT_NE(Error->str().find("mod\\nule"), std::string::npos) << Error->str();

  Plan = planWithModuleMember("w\r\nx");
  Error = validate(Plan);
  ASSERT_TRUE(Error);
  EXPECT_EQ(Error->str().find_first_of("\r\n"), std::string::npos)
      << Error->str();
}

TEST(PlanHostile, NumberOutOfRangeIsAPlanError) {
  // nlohmann reports 1e309 as out_of_range, not as a parse_error: it must
  // still be a PlanError, which the probe turns into a verdict.
  std::string File = testing::TempDir() + "plan-1e309.json";
  std::ofstream(File) << R"({"format": "torch-tidy-plan", "version": 1e309})";
  try {
    loadPlanFile(File);
    ADD_FAILURE() << "loaded";
  } catch (const PlanError &E) {
    EXPECT_NE(std::string(E.what()).find("malformed JSON"), std::string::npos)
        << E.what();
  }
  std::remove(File.c_str());
}

} // namespace
