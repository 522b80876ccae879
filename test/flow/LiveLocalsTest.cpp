//===--- LiveLocalsTest.cpp - Dropping the locals nothing reads again -----===//

#include "ParsedCode.h"
#include "flow/LiveLocals.h"
#include "utils/BlockLiveness.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/CFG.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::torch_tidy;
using flow::Location;
using flow::Place;

namespace {

std::unique_ptr<CFG> cfgOf(const FunctionDecl &Fn) {
  return CFG::buildCFG(&Fn, Fn.getBody(), &Fn.getASTContext(),
                       CFG::BuildOptions());
}

const VarDecl &local(torch_tidy::test::ParsedCode &Code, const char *Name) {
  auto Found = match(findAll(varDecl(hasName(Name)).bind("v")),
                     Code.context());
  EXPECT_FALSE(Found.empty()) << Name;
  return *Found.front().getNodeAs<VarDecl>("v");
}

/// The block holding the statement that calls \p Callee.
const CFGBlock &blockCalling(const CFG &Graph, const char *Callee) {
  for (const CFGBlock *Block : Graph)
    for (const CFGElement &Element : *Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
            Call && Call->getDirectCallee() &&
            Call->getDirectCallee()->getName() == Callee)
          return *Block;
  ADD_FAILURE() << "no call of " << Callee;
  return Graph.getExit();
}

TEST(LiveLocalsTest, ALocalIsLiveUntilItsLastRead) {
  torch_tidy::test::ParsedCode Code(R"cpp(
void useA(int);
void useB(int);
void useN(int);
void f(int n) {
  int a = 1;
  int b = 2;
  while (n--) {
    useA(a);
    if (n == 3) { useB(b); break; }
  }
  useN(n);
}
)cpp");
  auto Graph = cfgOf(Code.function("f"));
  utils::BlockLiveness Live(*Graph);
  const VarDecl &A = local(Code, "a"), &B = local(Code, "b");
  // In the loop, `a` is read again on the next iteration, `b` later on it.
  const CFGBlock &ReadsA = blockCalling(*Graph, "useA");
  EXPECT_TRUE(Live.isLiveAtExit(ReadsA, &A));
  EXPECT_TRUE(Live.isLiveAtExit(ReadsA, &B));
  // The last read of `b` leaves the loop: neither is read again.
  const CFGBlock &ReadsB = blockCalling(*Graph, "useB");
  EXPECT_FALSE(Live.isLiveAtExit(ReadsB, &A));
  EXPECT_FALSE(Live.isLiveAtExit(ReadsB, &B));
  EXPECT_FALSE(Live.isLiveAtExit(blockCalling(*Graph, "useN"), &A));
}

TEST(LiveLocalsTest, OnlyLocalsReadByNameAreDropped) {
  torch_tidy::test::ParsedCode Code(R"cpp(
#include <torch/torch.h>
#include <vector>
void f(torch::Tensor param) {
  auto dead = torch::zeros({2});
  auto captured = torch::zeros({2});
  auto lambda = [&] { return captured.sum(); };
  std::vector<torch::Tensor> walked{torch::zeros({2})};
  auto held = torch::zeros({2});
  auto device = held.device();
  torch::Tensor &alias = param;
  dead.sum();
  for (auto &t : walked)
    t.sum();
  lambda();
  torch::zeros({2}, device);
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  const FunctionDecl &Fn = Code.function("f");
  auto Graph = cfgOf(Fn);
  flow::LiveLocals Live(*Graph, *Fn.getBody());
  flow::State S;
  auto Cpu = flow::TensorValue();
  Cpu.Device = Place::Cpu;
  for (const char *Name : {"dead", "captured", "walked", "held", "alias"})
    S.Tensors[Location(&local(Code, Name))] = Cpu;
  S.Tensors[Location(Fn.getParamDecl(0))] = Cpu;
  // The block that reads `dead` for the last time.
  Live.forgetDead(blockCalling(*Graph, "sum"), S);
  EXPECT_FALSE(S.Tensors.count(Location(&local(Code, "dead"))));
  for (const char *Name : {"captured", "walked", "held", "alias"})
    EXPECT_TRUE(S.Tensors.count(Location(&local(Code, Name)))) << Name;
  EXPECT_TRUE(S.Tensors.count(Location(Fn.getParamDecl(0))));
}

} // namespace
