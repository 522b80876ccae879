//===--- CrossFileSolverTest.cpp - Facts solved over every file of a run --===//

#include "CrossFileSolver.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

Need called(const std::string &Fn) {
  return {Need::CalledWithAccelerator, Fn, 0};
}

Span at(const std::string &File, unsigned Offset) {
  Span S;
  S.File = File;
  S.Offset = Offset;
  return S;
}

/// A file that supplies \p Fact at its offset \p Offset, if \p Condition.
Supply supply(const std::string &File, unsigned Offset, Need Fact,
              std::optional<Need> Condition = std::nullopt) {
  return {std::move(Fact), at(File, Offset), File + ":" + std::to_string(Offset),
          std::move(Condition)};
}

/// A finding of \p File that holds if another file supplies \p Condition.
ConditionalFinding finding(const std::string &File, Need Condition) {
  Finding F;
  F.Check = "device-host-access";
  F.Message = "read on the host";
  F.Where = at(File, 100);
  return {std::move(F), std::move(Condition)};
}

/// main.cpp calls f with a GPU tensor; a.cpp's f passes it on to g; then
/// \p More files.
std::vector<CrossFileFacts> passedOnThroughA(size_t More) {
  std::vector<CrossFileFacts> Files(2 + More);
  Files[0].Unit = "main.cpp";
  Files[0].Supplies = {supply("main.cpp", 1, called("f"))};
  Files[1].Unit = "a.cpp";
  Files[1].Supplies = {supply("a.cpp", 2, called("g"), called("f"))};
  return Files;
}

std::vector<std::string> noteMessages(const Finding &F) {
  std::vector<std::string> Out;
  for (const Note &N : F.Notes)
    Out.push_back(N.Message);
  return Out;
}

// main.cpp calls f with a GPU tensor; a.cpp's f passes it on to g; b.cpp's g
// reads it on the host: the finding names both links, outermost first.
TEST(CrossFileSolverTest, AChainAcrossThreeFilesNamesEachLink) {
  std::vector<CrossFileFacts> Files = passedOnThroughA(1);
  Files[2].Unit = "b.cpp";
  Files[2].Conditional = {finding("b.cpp", called("g"))};
  CrossFileResolution R = solveCrossFile(Files);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(noteMessages(R.Findings[0]),
            (std::vector<std::string>{"main.cpp:1", "a.cpp:2"}));
  EXPECT_EQ(R.Findings[0].ChainLinks, 2u);
  EXPECT_EQ(R.BoundHits, 0u);
}

// The outer call passes a CPU tensor: nothing supplies f's fact, so the
// link in a.cpp establishes nothing and the finding stays quiet.
TEST(CrossFileSolverTest, AChainWithoutItsOutermostFactStaysQuiet) {
  std::vector<CrossFileFacts> Files(2);
  Files[0].Unit = "a.cpp";
  Files[0].Supplies = {supply("a.cpp", 2, called("g"), called("f"))};
  Files[1].Unit = "b.cpp";
  Files[1].Conditional = {finding("b.cpp", called("g"))};
  EXPECT_TRUE(solveCrossFile(Files).Findings.empty());
}

// A link only holds for the files other than its own: a.cpp's finding on
// g, which only a.cpp supplies, stays quiet (a.cpp reported it already
// if it holds there).
TEST(CrossFileSolverTest, AFactHoldsForOtherFilesOnly) {
  std::vector<CrossFileFacts> Files = passedOnThroughA(0);
  Files[1].Conditional = {finding("a.cpp", called("g"))};
  EXPECT_TRUE(solveCrossFile(Files).Findings.empty());
}

// f in a.cpp calls g in b.cpp, which calls f again: the fixpoint ends, and
// the finding in b.cpp takes the shortest chain.
TEST(CrossFileSolverTest, RecursionAcrossFilesEnds) {
  std::vector<CrossFileFacts> Files = passedOnThroughA(1);
  Files[2].Unit = "b.cpp";
  Files[2].Supplies = {supply("b.cpp", 3, called("f"), called("g"))};
  Files[2].Conditional = {finding("b.cpp", called("g"))};
  CrossFileResolution R = solveCrossFile(Files);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(noteMessages(R.Findings[0]),
            (std::vector<std::string>{"main.cpp:1", "a.cpp:2"}));
  // f for the files other than main.cpp and b.cpp, g for those other than
  // a.cpp: three (fact, file) pairs.
  EXPECT_EQ(R.Established, 3u);
}

// A chain of one link per file, longer than the bound: the facts past it are
// not established and the finding at its end stays quiet; the cut is counted.
TEST(CrossFileSolverTest, AChainPastTheBoundStaysQuiet) {
  const unsigned Files = 6;
  std::vector<CrossFileFacts> Chain(Files);
  Chain[0].Unit = "f0.cpp";
  Chain[0].Supplies = {supply("f0.cpp", 1, called("h1"))};
  for (unsigned I = 1; I < Files; ++I) {
    Chain[I].Unit = "f" + std::to_string(I) + ".cpp";
    Chain[I].Supplies = {supply(Chain[I].Unit, 1,
                                called("h" + std::to_string(I + 1)),
                                called("h" + std::to_string(I)))};
  }
  Chain.push_back({"last.cpp", {finding("last.cpp", called("h6"))}, {}});
  CrossFileResolution Within = solveCrossFile(Chain, 6);
  ASSERT_EQ(Within.Findings.size(), 1u);
  EXPECT_EQ(Within.Findings[0].ChainLinks, 6u);
  EXPECT_EQ(Within.BoundHits, 0u);
  CrossFileResolution Cut = solveCrossFile(Chain, 5);
  EXPECT_TRUE(Cut.Findings.empty());
  EXPECT_EQ(Cut.BoundHits, 1u);
}

// A module moved in main.cpp moves the submodule its class registers in
// model.cpp: the submodule's finding names the move.
TEST(CrossFileSolverTest, AMoveReachesTheSubmodulesRegistered) {
  std::vector<CrossFileFacts> Files(2);
  Files[0].Unit = "main.cpp";
  Files[0].Supplies = {supply("main.cpp", 1, {Need::ModuleMoved, "Net"})};
  Files[1].Unit = "model.cpp";
  Files[1].Supplies = {
      {{Need::RegistersSubmodule, "Net", 0, "Block"}, at("model.cpp", 5), "", {}}};
  Files[1].Conditional = {finding("model.cpp", {Need::ModuleMoved, "Block"})};
  CrossFileResolution R = solveCrossFile(Files);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(noteMessages(R.Findings[0]), (std::vector<std::string>{"main.cpp:1"}));
}

// What a function returns on the CPU, field by field: a finding on one
// field is not decided by a supply of another.
TEST(CrossFileSolverTest, AReturnedFieldIsItsOwnFact) {
  std::vector<CrossFileFacts> Files(2);
  Files[0].Unit = "data.cpp";
  Files[0].Supplies = {
      supply("data.cpp", 1, {Need::ReturnsCpu, "load", 0, "", "target"})};
  Files[1].Unit = "train.cpp";
  Files[1].Conditional = {
      finding("train.cpp", {Need::ReturnsCpu, "load", 0, "", "target"}),
      finding("train.cpp", {Need::ReturnsCpu, "load", 0, "", "data"})};
  CrossFileResolution R = solveCrossFile(Files);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(noteMessages(R.Findings[0]), (std::vector<std::string>{"data.cpp:1"}));
}

// Conditional supplies survive the worker's wire; another version does not.
TEST(CrossFileSolverTest, ConditionalSuppliesSurviveTheWire) {
  CrossFileFacts Facts;
  Facts.Unit = "a.cpp";
  Facts.Supplies = {supply("a.cpp", 2, called("g"), called("f")),
                    supply("a.cpp", 3, {Need::ReturnsCpu, "load", 0, "", "y"})};
  auto Back = crossFileFromWire(crossFileToWire(Facts));
  ASSERT_TRUE(static_cast<bool>(Back));
  ASSERT_EQ(Back->Supplies.size(), 2u);
  EXPECT_EQ(Back->Supplies[0].Condition, std::optional<Need>(called("f")));
  EXPECT_EQ(Back->Supplies[1].Fact.Part, "y");
  EXPECT_FALSE(Back->Supplies[1].Condition);
  nlohmann::json Old = crossFileToWire(Facts);
  Old["version"] = CrossFileWireVersion - 1;
  auto Stale = crossFileFromWire(Old);
  EXPECT_FALSE(static_cast<bool>(Stale));
  llvm::consumeError(Stale.takeError());
}

} // namespace
} // namespace torch_tidy
