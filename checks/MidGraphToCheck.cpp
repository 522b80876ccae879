//===--- MidGraphToCheck.cpp - device-mid-graph-to ------------------------===//

#include "MidGraphToCheck.h"
#include "api/FactoryOnDevice.h"
#include "api/Optimizers.h"
#include "plans/LiteralSizes.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

/// The variable that stores the moved tensor: `auto w = leaf.to(d);`.
static const VarDecl *storedIn(const Expr &Move, ASTContext &Ctx) {
  const Stmt *Current = &Move;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    if (const auto *Var = Parents[0].get<VarDecl>())
      return Var;
    const auto *Parent = Parents[0].get<Expr>();
    if (!Parent || !isa<ExprWithCleanups, MaterializeTemporaryExpr,
                        CXXBindTemporaryExpr, ImplicitCastExpr,
                        CXXConstructExpr>(Parent))
      return nullptr;
    Current = Parent;
  }
}

/// The leaf, its moved copy, and an optimizer that refuses the copy.
static nlohmann::json leafPlan(llvm::StringRef Check,
                               const plans::ReplayedMove &Move,
                               const flow::TensorValue &Leaf) {
  plans::PlanBuilder Plan;
  plans::TensorSpec Weight{
      Move.origin(),
      plans::literalSizes(Leaf.Source).value_or(std::vector<int64_t>{3})};
  Weight.RequiresGrad = true;
  std::string W = Plan.factory(Weight);
  std::string Moved = Plan.move(W, Move.Fn, Move.Target, /*Keep=*/true);
  Plan.sgd({Moved});
  Plan.expect({{"kind", "non-leaf-rejected"}, {"step", Plan.lastStep()}});
  return Plan.finish(Check, "an optimizer given the moved leaf");
}

void MidGraphToCheck::report(const flow::FunctionFacts &Facts,
                             ASTContext &Ctx) {
  for (const Expr *E :
       nodesIn(Facts, api::toOrCudaCall().bind("node"), Ctx)) {
    const auto *Move = cast<CXXMemberCallExpr>(E);
    flow::TensorValue Leaf = Facts.deviceOf(*Move->getImplicitObjectArgument());
    if (!Leaf.RequiresGradLeaf ||
        Facts.deviceOf(*Move).Device != flow::Place::Accelerator ||
        !Reported.insert(Move).second)
      continue;
    llvm::StringRef Name = Move->getMethodDecl()->getName();
    {
      auto Diag = finding(Move->getBeginLoc(),
                       "'%0' on a leaf that requires grad returns a copy that "
                       "is not a leaf: its .grad() stays undefined, and an "
                       "optimizer given it throws \"can't optimize a non-leaf "
                       "Tensor\"; on the CPU '%0' returns the leaf itself, so "
                       "only a GPU run shows it")
                  << Name << Move->getSourceRange();
      // Creating the leaf on the device is the fix.
      if (const CallExpr *Factory =
              api::factoryBeneathFills(*Move->getImplicitObjectArgument()))
        for (const FixItHint &Fix : api::createOnDevice(*Factory, *Move, Ctx))
          Diag << Fix;
    }
    if (auto Replayed = plans::replayedMove(*Move))
      plans::recordPlan(getID(), Move->getBeginLoc(),
                        Ctx.getSourceManager(),
                        leafPlan(getID(), *Replayed, Leaf));
    else
      plans::recordNotReplayable(getID(), Move->getBeginLoc(),
                                 Ctx.getSourceManager());
    const VarDecl *Result = storedIn(*Move, Ctx);
    const Stmt *Body = utils::enclosingFunctionBody(*Move, Ctx);
    if (Result && Body)
      if (const Expr *Optimizer = api::optimizerGiven(*Result, *Body, Ctx))
        diag(Optimizer->getBeginLoc(),
             "the optimizer is given the non-leaf '%0' here",
             DiagnosticIDs::Note)
            << Result->getName();
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
