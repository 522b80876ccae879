//===--- MidGraphToCheck.cpp - device-mid-graph-to ------------------------===//

#include "MidGraphToCheck.h"
#include "plans/LiteralSizes.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void MidGraphToCheck::registerMatchers(MatchFinder *Finder) {
  FlowCheck::registerMatchers(Finder);
  auto Loop = stmt(anyOf(forStmt(), whileStmt(), doStmt(), cxxForRangeStmt()));
  Finder->addMatcher(
      cxxMemberCallExpr(
          callee(cxxMethodDecl(hasAnyName("to", "cuda"),
                               ofClass(api::tensorRecord()))),
          on(ignoringParenImpCasts(
              declRefExpr(to(varDecl(hasLocalStorage()).bind("var"))))),
          hasAncestor(Loop.bind("loop")),
          unless(isExpansionInSystemHeader()))
          .bind("perstep"),
      this);
}

void MidGraphToCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<CXXMemberCallExpr>("perstep"))
    checkPerStepCopy(Result);
  else
    FlowCheck::check(Result);
}

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

/// An optimizer constructed with \p Var among its parameters, after it.
static const Expr *optimizerOf(const VarDecl &Var, const Stmt &Body,
                               ASTContext &Ctx) {
  auto Matches = match(
      findAll(cxxConstructExpr(
                  hasDeclaration(cxxConstructorDecl(ofClass(cxxRecordDecl(
                      matchesName("^::torch::optim::"))))),
                  hasDescendant(declRefExpr(to(equalsNode(&Var)))))
                  .bind("optimizer")),
      Body, Ctx);
  return Matches.empty() ? nullptr
                         : Matches.front().getNodeAs<Expr>("optimizer");
}

/// Creating the tensor on the device is the fix: `torch::randn({3},
/// torch::requires_grad().device(d))` for `torch::randn({3},
/// torch::requires_grad()).to(d)`.
static std::vector<FixItHint> createOnDevice(const CXXMemberCallExpr &Move,
                                             const ASTContext &Ctx) {
  const auto *Factory = dyn_cast<CallExpr>(
      Move.getImplicitObjectArgument()->IgnoreImplicit());
  if (!Factory || Move.getBeginLoc().isMacroID() ||
      Move.getEndLoc().isMacroID())
    return {};
  const Expr *Options = nullptr;
  for (const Expr *Arg : Factory->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && api::isTensorOptionsType(Arg->getType()))
      Options = Arg;
  if (!Options || !isa<CallExpr>(Options->IgnoreImplicit()))
    return {};
  std::string Device = "torch::kCUDA";
  if (Move.getMethodDecl()->getName() == "to") {
    if (Move.getNumArgs() != 1 && !(Move.getNumArgs() > 1 &&
                                    isa<CXXDefaultArgExpr>(Move.getArg(1))))
      return {};
    // `w.to(device)` converts the device to TensorOptions.
    const Expr *Target = Move.getArg(0)->IgnoreImplicit();
    if (const auto *Conversion = dyn_cast<CXXConstructExpr>(Target);
        Conversion && Conversion->getNumArgs() == 1)
      Target = Conversion->getArg(0)->IgnoreImplicit();
    auto Text = utils::sourceText(*Target, Ctx);
    if (!Text || !api::namesADevice(Target->getType()))
      return {};
    Device = *Text;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation AfterFactory = Lexer::getLocForEndOfToken(
      Factory->getEndLoc(), 0, SM, Ctx.getLangOpts());
  SourceLocation AfterOptions = Lexer::getLocForEndOfToken(
      Options->getEndLoc(), 0, SM, Ctx.getLangOpts());
  return {FixItHint::CreateInsertion(AfterOptions, ".device(" + Device + ")"),
          FixItHint::CreateRemoval(CharSourceRange::getTokenRange(
              AfterFactory, Move.getEndLoc()))};
}

/// The device a tensor moved by \p Move comes from.
static std::string originOf(const plans::ReplayedMove &Move) {
  return Move.Target == "cpu" ? "accel" : "cpu";
}

/// The leaf, its moved copy, and an optimizer that refuses the copy.
static nlohmann::json leafPlan(llvm::StringRef Check,
                               const plans::ReplayedMove &Move,
                               const flow::TensorValue &Leaf) {
  plans::PlanBuilder Plan;
  plans::TensorSpec Weight{
      originOf(Move),
      plans::literalSizes(Leaf.Source).value_or(std::vector<int64_t>{3})};
  Weight.RequiresGrad = true;
  std::string W = Plan.factory(Weight);
  std::string Moved = Plan.move(W, Move.Fn, Move.Target, /*Keep=*/true);
  Plan.sgd({Moved});
  Plan.expect({{"kind", "non-leaf-rejected"}, {"step", Plan.lastStep()}});
  return Plan.finish(Check, "an optimizer given the moved leaf");
}

/// The same copy, a hundred times: its cost per step.
static nlohmann::json perStepPlan(llvm::StringRef Check,
                                  const plans::ReplayedMove &Move,
                                  const VarDecl &Var) {
  plans::PlanBuilder Plan;
  const Expr *Init = Var.getInit() ? Var.getInit()->IgnoreImplicit() : nullptr;
  std::string Mask = Plan.factory(
      {originOf(Move),
       plans::literalSizes(Init).value_or(std::vector<int64_t>{1024})});
  Plan.move(Mask, Move.Fn, Move.Target, /*Keep=*/true, /*Repeat=*/100);
  Plan.expect({{"kind", "timing"}, {"step", Plan.lastStep()}, {"min_micros", 1}});
  return Plan.finish(Check, "the cost of one per-step copy");
}

void MidGraphToCheck::report(const flow::FunctionFacts &Facts,
                             ASTContext &Ctx) {
  for (const flow::LeafMove &Move : Facts.LeafMoves) {
    if (!Reported.insert(Move.Move).second)
      continue;
    llvm::StringRef Name = Move.Move->getMethodDecl()->getName();
    {
      auto Diag = diag(Move.Move->getBeginLoc(),
                       "'%0' on a leaf that requires grad returns a copy that "
                       "is not a leaf: its .grad() stays undefined, and an "
                       "optimizer given it throws \"can't optimize a non-leaf "
                       "Tensor\"; on the CPU '%0' returns the leaf itself, so "
                       "only a GPU run shows it")
                  << Name << Move.Move->getSourceRange();
      for (const FixItHint &Fix : createOnDevice(*Move.Move, Ctx))
        Diag << Fix;
    }
    if (auto Replayed = plans::replayedMove(*Move.Move))
      plans::recordPlan(getID(), Move.Move->getBeginLoc(),
                        Ctx.getSourceManager(),
                        leafPlan(getID(), *Replayed, Move.Leaf));
    else
      plans::recordNotReplayable(getID(), Move.Move->getBeginLoc(),
                                 Ctx.getSourceManager());
    const VarDecl *Result = storedIn(*Move.Move, Ctx);
    const Stmt *Body = utils::enclosingFunctionBody(*Move.Move, Ctx);
    if (Result && Body)
      if (const Expr *Optimizer = optimizerOf(*Result, *Body, Ctx))
        diag(Optimizer->getBeginLoc(),
             "the optimizer is given the non-leaf '%0' here",
             DiagnosticIDs::Note)
            << Result->getName();
    noteCallChain(Facts, Ctx);
  }
}

/// Whether \p Ref may change the variable: assigned, modified in place
/// (`add_`, `+=`) or passed by non-const reference.
static bool mayModify(const DeclRefExpr &Ref, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(Ref);
  while (!Parents.empty() && Parents[0].get<ImplicitCastExpr>())
    Parents = Ctx.getParents(Parents[0]);
  if (Parents.empty())
    return true;
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    return Op->isAssignmentOp() && Op->getArg(0)->IgnoreImplicit() == &Ref;
  if (const auto *Op = Parents[0].get<BinaryOperator>())
    return Op->isAssignmentOp() && Op->getLHS()->IgnoreImplicit() == &Ref;
  if (const auto *Member = Parents[0].get<MemberExpr>()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
    return !Method || Method->getName().ends_with("_");
  }
  if (const auto *Call = Parents[0].get<CallExpr>()) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
      if (Call->getArg(I)->IgnoreImplicit() == &Ref) {
        QualType Param = Callee->getParamDecl(I)->getType();
        return Param->isReferenceType() &&
               !Param->getPointeeType().isConstQualified();
      }
    return false;
  }
  return false;
}

/// Whether \p Move runs on some iterations of \p Loop only: it sits in a
/// branch of an `if`, a `switch`, `?:`, or the right of `&&`/`||` inside the
/// loop (a copy for logging or saving every N steps).
static bool isConditionalInLoop(const Stmt &Move, const Stmt &Loop,
                                ASTContext &Ctx) {
  DynTypedNode Child = DynTypedNode::create(Move);
  while (Child.get<Stmt>() != &Loop) {
    DynTypedNodeList Parents = Ctx.getParents(Child);
    if (Parents.empty())
      return false;
    DynTypedNode Parent = Parents[0];
    // Null where the child is a declaration (`auto saved = m.to(d);`).
    const Stmt *From = Child.get<Stmt>();
    if (const auto *If = Parent.get<IfStmt>(); If && From != If->getCond())
      return true;
    if (Parent.get<SwitchCase>())
      return true;
    if (const auto *Choice = Parent.get<ConditionalOperator>();
        Choice && From != Choice->getCond())
      return true;
    if (const auto *Logic = Parent.get<BinaryOperator>();
        Logic && Logic->isLogicalOp() && From == Logic->getRHS())
      return true;
    Child = Parent;
  }
  return false;
}

void MidGraphToCheck::checkPerStepCopy(const MatchFinder::MatchResult &Result) {
  const auto *Move = Result.Nodes.getNodeAs<CXXMemberCallExpr>("perstep");
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  if (Move->getBeginLoc().isMacroID() || !flow::namesAccelerator(Ctx) ||
      Loop->getSourceRange().fullyContains(Var->getSourceRange()) ||
      !api::isTensorType(Var->getType()) || utils::containsErrors(*Loop))
    return;
  bool MovesDevice = Move->getMethodDecl()->getName() == "cuda";
  for (const Expr *Arg : Move->arguments())
    MovesDevice |= !isa<CXXDefaultArgExpr>(Arg) &&
                   (api::namesADevice(Arg->getType()) ||
                    api::isTensorOptionsType(Arg->getType()));
  if (!MovesDevice || isConditionalInLoop(*Move, *Loop, Ctx))
    return;
  // An optimizer given the tensor updates it in place at every step().
  const Stmt *Body = utils::enclosingFunctionBody(*Move, Ctx);
  if (!Body || optimizerOf(*Var, *Body, Ctx))
    return;
  auto Refs = match(findAll(declRefExpr(to(equalsNode(Var))).bind("ref")),
                    *Loop, Ctx);
  for (const BoundNodes &Ref : Refs)
    if (mayModify(*Ref.getNodeAs<DeclRefExpr>("ref"), Ctx))
      return;
  if (!Reported.insert(Move).second)
    return;
  diag(Move->getBeginLoc(),
       "'%0' does not change inside the loop, yet '%1' copies it on every "
       "iteration: a needless copy between devices per step (a performance "
       "problem); move it once before the loop")
      << Var->getName() << Move->getMethodDecl()->getName()
      << Move->getSourceRange();
  if (auto Replayed = plans::replayedMove(*Move))
    plans::recordPlan(getID(), Move->getBeginLoc(), Ctx.getSourceManager(),
                      perStepPlan(getID(), *Replayed, *Var));
  else
    plans::recordNotReplayable(getID(), Move->getBeginLoc(),
                               Ctx.getSourceManager());
  diag(Var->getLocation(), "'%0' is declared here, outside the loop",
       DiagnosticIDs::Note)
      << Var->getName();
}

} // namespace clang::tidy::torch_tidy
