//===--- SolverTest.cpp - The fixpoint and its bound ----------------------===//

#include "ParsedCode.h"
#include "flow/Solver.h"
#include "clang/Analysis/CFG.h"
#include <gtest/gtest.h>

using namespace clang::tidy::torch_tidy::flow;

namespace {

const char *const Loop = R"cpp(
#include <torch/torch.h>
void f(torch::Device device, int n) {
  auto x = torch::zeros({2});
  for (int i = 0; i < n; ++i) {
    auto first = x + torch::ones({2});
    x = x.to(device);
  }
  auto after = x + torch::ones({2});
}
)cpp";

TEST(SolverTest, AValueThatChangesInALoopIsUnknownAtItsHead) {
  torch_tidy::test::ParsedCode Code(Loop);
  ASSERT_FALSE(Code.hasErrors());
  const FunctionFacts &Facts = Code.root("f");
  // After the loop: on the CPU or on the device, whichever ran last.
  EXPECT_TRUE(Facts.deviceOf(Code.lastUse("f", "x")).isUnknown());
  EXPECT_FALSE(Facts.BoundHit);
}

TEST(SolverTest, TheFirstIterationIsWhatARealRunSees) {
  torch_tidy::test::ParsedCode Code(Loop);
  const FunctionFacts &Facts = Code.root("f");
  // `x + ...` in the body: unknown at the fixpoint, but the first
  // iteration sees the CPU tensor.
  auto Uses = clang::ast_matchers::match(
      clang::ast_matchers::findAll(
          clang::ast_matchers::declRefExpr(
              clang::ast_matchers::to(clang::ast_matchers::varDecl(
                  clang::ast_matchers::hasName("x"))))
              .bind("x")),
      *Code.function("f").getBody(), Code.context());
  // Uses: `x + ...` in the loop, then both sides of `x = x.to(device)`.
  ASSERT_GE(Uses.size(), 3u);
  const auto *InLoop = Uses[0].getNodeAs<clang::Expr>("x");
  EXPECT_EQ(Facts.deviceOf(*InLoop).Device, Place::Cpu);
}

TEST(SolverTest, LoopMembershipComesFromTheCFG) {
  torch_tidy::test::ParsedCode Code(Loop);
  const FunctionFacts &Facts = Code.root("f");
  auto Calls = clang::ast_matchers::match(
      clang::ast_matchers::findAll(
          clang::ast_matchers::callExpr(clang::ast_matchers::callee(
                                            clang::ast_matchers::functionDecl(
                                                clang::ast_matchers::hasName("ones"))))
              .bind("ones")),
      *Code.function("f").getBody(), Code.context());
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_TRUE(Facts.inLoop(*Calls[0].getNodeAs<clang::Expr>("ones")));
  EXPECT_FALSE(Facts.inLoop(*Calls[1].getNodeAs<clang::Expr>("ones")));
}

TEST(SolverTest, TheBoundIsCountedAndSaysSo) {
  std::string Branches = "void g(bool b) {\n";
  for (int I = 0; I < 24; ++I)
    Branches += "  if (b) b = !b;\n";
  torch_tidy::test::ParsedCode Code(Branches + "}\n");
  const clang::FunctionDecl &G = Code.function("g");
  std::unique_ptr<clang::CFG> Graph = clang::CFG::buildCFG(
      &G, G.getBody(), &Code.context(), clang::CFG::BuildOptions());
  ASSERT_TRUE(Graph);
  auto Nothing = [](const clang::CFGBlock &, State &) {};
  // No visits per block beyond the fixed allowance: more blocks than that
  // stop the solver, and it says so.
  SolverResult Stopped = solveToFixpoint(*Graph, State(), Nothing, nullptr, 0);
  EXPECT_TRUE(Stopped.BoundHit);
  EXPECT_EQ(Stopped.Visits, 16u);
  // The default bound leaves room for the fixpoint: each block once here.
  SolverResult Done = solveToFixpoint(*Graph, State(), Nothing);
  EXPECT_FALSE(Done.BoundHit);
  EXPECT_EQ(Done.Visits, Graph->getNumBlockIDs());
}

} // namespace
