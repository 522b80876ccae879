//===--- FindingWireTest.cpp - Findings survive the trip between processes ===//

#include "FindingWire.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

Span span(const std::string &File, unsigned Offset, unsigned Length) {
  return {File, Offset, Length, 2, Offset + 1, 2, Offset + Length + 1};
}

Finding everyField() {
  Finding F;
  F.Check = "device-discarded-to";
  F.Message = "result of 'to' is discarded \xE2\x80\x94 \"quoted\"\n";
  F.IsError = true;
  F.IsWarningAsError = true;
  F.Where = span("/src/a b.cpp", 10, 0);
  F.Ranges = {span("/src/a b.cpp", 10, 5)};
  F.Notes = {{span("/src/h.h", 3, 0),
              "moved here",
              {{span("/src/h.h", 3, 1), "&"}},
              {span("/src/h.h", 3, 4)}}};
  F.Fixes = {{span("/src/a b.cpp", 10, 0), "x = "}};
  F.BuildDirectory = "/build";
  F.Plan = nlohmann::json{{"steps", {1, 2}}};
  F.OperationNotReplayable = true;
  return F;
}

void expectSameSpan(const Span &A, const Span &B) {
  EXPECT_EQ(A.File, B.File);
  EXPECT_EQ(A.Offset, B.Offset);
  EXPECT_EQ(A.Length, B.Length);
  EXPECT_EQ(A.Line, B.Line);
  EXPECT_EQ(A.Column, B.Column);
  EXPECT_EQ(A.EndLine, B.EndLine);
  EXPECT_EQ(A.EndColumn, B.EndColumn);
}

TEST(FindingWire, EveryFieldSurvivesTheRoundTrip) {
  Finding F = everyField();
  auto Text = findingsToWire({F}).dump();
  auto Back = findingsFromWire(nlohmann::json::parse(Text));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->size(), 1u);
  const Finding &G = Back->front();
  EXPECT_EQ(G.Check, F.Check);
  EXPECT_EQ(G.Message, F.Message);
  EXPECT_EQ(G.IsError, F.IsError);
  EXPECT_EQ(G.IsWarningAsError, F.IsWarningAsError);
  expectSameSpan(G.Where, F.Where);
  ASSERT_EQ(G.Ranges.size(), 1u);
  expectSameSpan(G.Ranges[0], F.Ranges[0]);
  ASSERT_EQ(G.Notes.size(), 1u);
  expectSameSpan(G.Notes[0].Where, F.Notes[0].Where);
  EXPECT_EQ(G.Notes[0].Message, "moved here");
  ASSERT_EQ(G.Notes[0].Edits.size(), 1u);
  EXPECT_EQ(G.Notes[0].Edits[0].Replacement, "&");
  ASSERT_EQ(G.Notes[0].Ranges.size(), 1u);
  expectSameSpan(G.Notes[0].Ranges[0], F.Notes[0].Ranges[0]);
  ASSERT_EQ(G.Fixes.size(), 1u);
  expectSameSpan(G.Fixes[0].Where, F.Fixes[0].Where);
  EXPECT_EQ(G.Fixes[0].Replacement, "x = ");
  EXPECT_EQ(G.BuildDirectory, "/build");
  EXPECT_EQ(G.Plan, F.Plan);
  EXPECT_TRUE(G.OperationNotReplayable);
}

TEST(FindingWire, NoPlanStaysNoPlan) {
  Finding F = everyField();
  F.Plan.reset();
  auto Back = findingsFromWire(findingsToWire({F}));
  ASSERT_TRUE(bool(Back));
  EXPECT_FALSE(Back->front().Plan);
}

TEST(FindingWire, MalformedInputIsAnErrorNotACrash) {
  for (const char *Text : {"{}", "3", "[{}]", "[{\"check\": 1}]", "null",
                           "[{\"check\":\"c\",\"message\":\"m\",\"error\":false,"
                           "\"warningAsError\":false,\"where\":[\"f\"]}]"}) {
    auto Back = findingsFromWire(nlohmann::json::parse(Text));
    EXPECT_FALSE(bool(Back)) << Text;
    llvm::consumeError(Back.takeError());
  }
}

} // namespace
} // namespace torch_tidy
