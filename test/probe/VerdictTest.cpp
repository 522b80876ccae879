//===--- VerdictTest.cpp - Verdict and verdicts file schema ---------------===//

#include "runtime/Verdict.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace torch_tidy::plan;

namespace {

/// The one-line problem with \p J as a verdicts file ("" when it is one).
std::string verdictsProblem(const json &J) {
  auto Parsed = parseVerdicts(J);
  auto *Error = std::get_if<ValidationError>(&Parsed);
  return Error ? Error->str() : "";
}

json verdictsFile() {
  return json::parse(R"({
    "format": "torch-tidy-verdicts", "version": 1,
    "backend": "cuda:0", "device": "cuda:0 NVIDIA H200",
    "inventory": {"devices": []},
    "verdicts": [
      {"id": "a.cpp:1:1:device-mismatch", "check": "device-mismatch",
       "file": "plans/a.json", "verdict": "confirmed", "step": 2,
       "device": "cuda:0 NVIDIA H200",
       "message": "Expected all tensors to be on the same device"},
      {"id": "a.cpp:2:1:device-mid-graph-to", "check": "device-mid-graph-to",
       "file": "plans/b.json", "verdict": "not-reproduced", "step": 1,
       "micros": 0.5, "device": "cuda:0 NVIDIA H200", "message": "fast"},
      {"file": "plans/c.json", "verdict": "invalid",
       "reason": "/steps: must be a non-empty array of steps"}
    ],
    "summary": {"plans": 3, "confirmed": 1, "not-reproduced": 1,
                "inconclusive": 0, "invalid": 1}
  })");
}

TEST(Verdicts, ReadsWhatTheProbeWrites) {
  auto Parsed = parseVerdicts(verdictsFile());
  ASSERT_TRUE(std::holds_alternative<VerdictsDocument>(Parsed))
      << std::get<ValidationError>(Parsed).str();
  const VerdictsDocument &D = std::get<VerdictsDocument>(Parsed);
  EXPECT_EQ(D.Backend, "cuda:0");
  EXPECT_EQ(D.Device, "cuda:0 NVIDIA H200");
  ASSERT_EQ(D.Verdicts.size(), 3u);
  EXPECT_EQ(D.Verdicts[0].Outcome, outcome::Confirmed);
  EXPECT_EQ(D.Verdicts[0].Id, "a.cpp:1:1:device-mismatch");
  EXPECT_EQ(D.Verdicts[0].Step, 2);
  EXPECT_EQ(D.Verdicts[1].Micros, 0.5);
  EXPECT_EQ(D.Verdicts[2].Outcome, outcome::Invalid);
  EXPECT_EQ(D.Verdicts[2].Id, "");
  EXPECT_EQ(D.Verdicts[2].Reason, "/steps: must be a non-empty array of steps");
}

TEST(Verdicts, WritesWhatItReads) {
  json Original = verdictsFile();
  auto Parsed = parseVerdicts(Original);
  ASSERT_TRUE(std::holds_alternative<VerdictsDocument>(Parsed));
  EXPECT_EQ(toJson(std::get<VerdictsDocument>(Parsed)), Original);
}

TEST(Verdicts, SummaryCountsEachOutcome) {
  VerdictsDocument D;
  for (const char *Outcome :
       {outcome::Confirmed, outcome::Confirmed, outcome::Inconclusive}) {
    Verdict V;
    V.Outcome = Outcome;
    D.Verdicts.push_back(V);
  }
  json Summary = toJson(D).at("summary");
  EXPECT_EQ(Summary, json({{"plans", 3},
                           {"confirmed", 2},
                           {"not-reproduced", 0},
                           {"inconclusive", 1},
                           {"invalid", 0}}));
}

TEST(Verdicts, AcceptsTheLeastAFileNeeds) {
  EXPECT_EQ(
      verdictsProblem({{"format", "torch-tidy-verdicts"},
                 {"version", 1},
                 {"verdicts", {{{"id", "x"}, {"verdict", "inconclusive"}}}}}),
      "");
}

TEST(Verdicts, RejectsWhatIsNotAVerdictsFile) {
  EXPECT_EQ(verdictsProblem(json::array()),
            "/: a verdicts file must be a JSON object");
  EXPECT_EQ(verdictsProblem({{"verdicts", 3}}),
            "/format: must be \"torch-tidy-verdicts\"");
  json Plan = verdictsFile();
  Plan["format"] = "torch-tidy-plan";
  EXPECT_EQ(verdictsProblem(Plan), "/format: must be \"torch-tidy-verdicts\"");
  json Future = verdictsFile();
  Future["version"] = 2;
  EXPECT_EQ(verdictsProblem(Future), "/version: must be 1");
  json NoList = verdictsFile();
  NoList.erase("verdicts");
  EXPECT_EQ(verdictsProblem(NoList), "/verdicts: must be an array of verdicts");
  json Extra = verdictsFile();
  Extra["verdict"] = "confirmed";
  EXPECT_EQ(verdictsProblem(Extra), "/verdict: unknown field");
  json BadCount = verdictsFile();
  BadCount["summary"]["confirmed"] = -1;
  EXPECT_EQ(verdictsProblem(BadCount),
            "/summary/confirmed: must be a non-negative integer");
}

TEST(Verdicts, RejectsAMalformedVerdict) {
  auto ProblemWith = [](const char *Key, json Value) {
    json File = verdictsFile();
    File["verdicts"][1][Key] = std::move(Value);
    return verdictsProblem(File);
  };
  EXPECT_EQ(ProblemWith("verdict", "maybe"),
            "/verdicts/1/verdict: must be confirmed, not-reproduced, "
            "inconclusive or invalid, got \"maybe\"");
  EXPECT_EQ(ProblemWith("step", -1),
            "/verdicts/1/step: must be a non-negative integer");
  EXPECT_EQ(ProblemWith("micros", "fast"),
            "/verdicts/1/micros: must be a non-negative number");
  EXPECT_EQ(ProblemWith("message", 3), "/verdicts/1/message: must be a string");
  EXPECT_EQ(ProblemWith("messages", "typo"),
            "/verdicts/1/messages: unknown field");
  json NoOutcome = verdictsFile();
  NoOutcome["verdicts"][0].erase("verdict");
  EXPECT_EQ(verdictsProblem(NoOutcome),
            "/verdicts/0: missing required field 'verdict'");
}

TEST(Verdicts, OneVerdictRoundTrips) {
  Verdict V;
  V.Outcome = outcome::Inconclusive;
  V.Reason = "the meta stand-in does not check devices for step 2";
  V.Step = 2;
  json J = toJson(V);
  EXPECT_EQ(
      J,
      json({{"verdict", "inconclusive"}, {"reason", V.Reason}, {"step", 2}}));
  auto Parsed = parseVerdict(J);
  ASSERT_TRUE(std::holds_alternative<Verdict>(Parsed));
  EXPECT_EQ(toJson(std::get<Verdict>(Parsed)), J);
  EXPECT_TRUE(std::holds_alternative<ValidationError>(parseVerdict("x")));
}

} // namespace
