//===--- MissingZeroGradCheck.cpp - training-missing-zero-grad ------------===//

#include "MissingZeroGradCheck.h"
#include "api/TorchApi.h"
#include "api/TrainingApi.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "utils/Execution.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void MissingZeroGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("step"))),
                        unless(isExpansionInSystemHeader()))
          .bind("step"),
      this);
}

void MissingZeroGradCheck::onEndOfTranslationUnit() {
  Origins.reset();
  Calls.reset();
  Reported.clear();
}

const ValueDecl *MissingZeroGradCheck::canonical(const ValueDecl *Object) {
  return Object ? utils::canonicalObject(Object, *Calls, api::receiverObject) : nullptr;
}

std::optional<MissingZeroGradCheck::Objects>
MissingZeroGradCheck::modulesOf(const ValueDecl &Optimizer, unsigned Depth) {
  // How the optimizer was made: a local's initializer, what the calls pass
  // for a parameter, what a field is given.
  std::vector<const Expr *> Made;
  if (const auto *Param = dyn_cast<ParmVarDecl>(&Optimizer)) {
    if (const auto *Fn = dyn_cast<FunctionDecl>(Param->getDeclContext()))
      for (const CallExpr *Call : Calls->of(*Fn))
        if (const Expr *Arg = utils::argumentFor(*Call, *Param))
          Made.push_back(Arg);
  } else if (const auto *Var = dyn_cast<VarDecl>(&Optimizer)) {
    if (Var->getInit())
      Made.push_back(Var->getInit());
  } else if (auto Written = Origins->of(Optimizer)) {
    Made = *Written;
  }
  if (Depth == 0 || Made.empty())
    return std::nullopt;
  Objects Modules;
  for (const Expr *Value : Made) {
    std::optional<Objects> In = modulesIn(*Value, Depth - 1);
    if (!In)
      return std::nullopt;
    Modules.insert(In->begin(), In->end());
  }
  return Modules;
}

std::optional<MissingZeroGradCheck::Objects>
MissingZeroGradCheck::modulesIn(const Expr &Value, unsigned Depth) {
  // Another optimizer: an argument passed for a parameter.
  if (const ValueDecl *Other = api::receiverObject(&Value);
      Other && api::heldOptimizer(Other->getType()))
    return modulesOf(*Other, Depth);
  Objects Modules;
  bool Found = false;
  llvm::SmallVector<const Stmt *, 16> Work = {&Value};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
        Call && api::isParametersCall(*Call)) {
      const ValueDecl *Module =
          canonical(api::receiverObject(Call->getImplicitObjectArgument()));
      if (!Module)
        return std::nullopt;
      Modules.insert(Module);
      Found = true;
      continue;
    }
    // A list of parameters kept in a variable: every value it holds (none
    // when it is changed another way). Tensors given another way: unknown.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
        Ref && isa<VarDecl>(Ref->getDecl()) &&
        (api::isTensorType(Ref->getType()) ||
         api::isTensorSequenceType(Ref->getType()))) {
      std::optional<std::vector<const Expr *>> Held =
          api::isTensorSequenceType(Ref->getType()) && Depth > 0
              ? Origins->of(*Ref->getDecl())
              : std::nullopt;
      if (!Held || Held->empty())
        return std::nullopt;
      for (const Expr *Each : *Held) {
        std::optional<Objects> In = modulesIn(*Each, Depth - 1);
        if (!In)
          return std::nullopt;
        Modules.insert(In->begin(), In->end());
      }
      Found = true;
      continue;
    }
    llvm::append_range(Work, S->children());
  }
  if (!Found)
    return std::nullopt;
  return Modules;
}

bool MissingZeroGradCheck::accumulates(const utils::LoopContext &Loop,
                                       const ValueDecl *Optimizer,
                                       ASTContext &Ctx) {
  bool Backward = false, Cleared = false;
  Objects ZeroedModules;
  const ValueDecl *Wanted = canonical(Optimizer);
  for (const Stmt *Part : Loop.Loop->children()) {
    if (!Part || !utils::isRepeatedPart(*Loop.Loop, *Part))
      continue;
    utils::forEachExecuted(*Part, Ctx, [&](const Stmt &S,
                                           utils::CallChain Chain) {
      const auto *Call = dyn_cast<CallExpr>(&S);
      if (!Call)
        return true;
      Backward |= api::isBackward(*Call);
      Cleared |= api::isManualGradReset(*Call);
      const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      if (!Member || !api::isZeroGrad(*Member))
        return true;
      const ValueDecl *Object = api::receiverObject(Member->getImplicitObjectArgument());
      Object = canonical(Object ? utils::objectInCaller(Object, Chain, api::receiverObject)
                                : nullptr);
      bool OfOptimizer =
          api::isOptimizerClass(Member->getMethodDecl()->getParent());
      // A zero_grad whose object is not known may be the one: quiet.
      if (!Object || (OfOptimizer && (Object == Wanted || !Wanted)))
        Cleared = true;
      else if (!OfOptimizer)
        ZeroedModules.insert(Object);
      return true;
    });
  }
  if (!Backward || Cleared)
    return false;
  if (ZeroedModules.empty())
    return true;
  if (!Wanted)
    return false;
  std::optional<Objects> Held = modulesOf(*Wanted, 4);
  if (!Held)
    return false;
  for (const ValueDecl *Module : *Held)
    if (!ZeroedModules.contains(Module))
      return true;
  return false;
}

void MissingZeroGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Step = Result.Nodes.getNodeAs<CXXMemberCallExpr>("step");
  ASTContext &Ctx = *Result.Context;
  if (!api::isOptimizerStep(*Step) || Step->getBeginLoc().isMacroID() ||
      api::isInLibTorch(*Step, Ctx) ||
      Reported.contains(Step->getExprLoc().getRawEncoding()))
    return;
  if (!Calls) {
    Calls = std::make_unique<utils::CallSites>(Ctx);
    Origins = std::make_unique<utils::ValueOrigins>(Ctx, *Calls);
  }
  const ValueDecl *Optimizer = api::receiverObject(Step->getImplicitObjectArgument());
  for (const utils::LoopContext &Loop :
       utils::loopsRunning(*Step, *Calls, Ctx)) {
    const ValueDecl *Here =
        Optimizer ? utils::objectInCaller(Optimizer, Loop.Chain, api::receiverObject)
                  : nullptr;
    // An optimizer made in the loop starts afresh; its parameters may too.
    if (Here && isa<VarDecl>(Here) &&
        Loop.Loop->getSourceRange().fullyContains(Here->getSourceRange()))
      continue;
    if (!accumulates(Loop, Here, Ctx))
      continue;
    Reported.insert(Step->getExprLoc().getRawEncoding());
    report(*Step, Loop, Here, Ctx);
    return;
  }
}

/// `opt.zero_grad();` on a line of its own after the statement `opt.step();`,
/// when that is safe: a plain step (no closure) whose gradients nothing
/// reads afterwards in its function.
static std::optional<FixItHint> zeroAfterStep(const CXXMemberCallExpr &Step,
                                              ASTContext &Ctx) {
  const auto *Callee = dyn_cast<MemberExpr>(Step.getCallee());
  // The statement itself: step() returns the loss, so a discarded result is
  // wrapped in the temporary's clean-ups.
  DynTypedNodeList Parents = Ctx.getParents(Step);
  while (!Parents.empty() && (Parents[0].get<ExprWithCleanups>() ||
                              Parents[0].get<CXXBindTemporaryExpr>()))
    Parents = Ctx.getParents(Parents[0]);
  if (!Callee || Parents.empty() || !Parents[0].get<CompoundStmt>() ||
      !llvm::all_of(Step.arguments(),
                    [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }) ||
      Step.getBeginLoc().isMacroID() ||
      Step.getEndLoc().isMacroID())
    return std::nullopt;
  const Stmt *Body = utils::enclosingFunctionBody(Step, Ctx);
  if (!Body)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BoundNodes &Found :
       match(findAll(cxxMemberCallExpr(
                         callee(cxxMethodDecl(hasAnyName("grad", "mutable_grad"),
                                              ofClass(api::tensorRecord()))))
                         .bind("grad")),
             *Body, Ctx))
    if (SM.isBeforeInTranslationUnit(
            Step.getEndLoc(), Found.getNodeAs<Expr>("grad")->getBeginLoc()))
      return std::nullopt;
  llvm::StringRef Object = Lexer::getSourceText(
      CharSourceRange::getCharRange(Step.getBeginLoc(), Callee->getMemberLoc()),
      SM, Ctx.getLangOpts());
  SourceLocation AfterSemi = Lexer::findLocationAfterToken(
      Step.getEndLoc(), tok::semi, SM, Ctx.getLangOpts(),
      /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (Object.empty() || AfterSemi.isInvalid())
    return std::nullopt;
  llvm::StringRef Line = SM.getBufferData(SM.getFileID(Step.getBeginLoc()))
                             .substr(SM.getFileOffset(Step.getBeginLoc()) -
                                     (SM.getSpellingColumnNumber(
                                          Step.getBeginLoc()) -
                                      1));
  llvm::StringRef Indent = Line.take_while([](char C) {
    return C == ' ' || C == '\t';
  });
  return FixItHint::CreateInsertion(
      AfterSemi, ("\n" + Indent + Object + "zero_grad();").str());
}

void MissingZeroGradCheck::report(const CXXMemberCallExpr &Step,
                                  const utils::LoopContext &Loop,
                                  const ValueDecl *Optimizer, ASTContext &Ctx) {
  const ValueDecl *Named =
      Optimizer ? Optimizer : api::receiverObject(Step.getImplicitObjectArgument());
  {
    auto Diag = diag(Step.getExprLoc(),
                     "%select{optimizer '%1'|the optimizer}0 steps in a loop whose "
                     "iterations call backward() but never clear its "
                     "gradients ('zero_grad()' on it or on the module it "
                     "optimizes): each backward adds to the gradients of "
                     "every earlier iteration, so each step applies their "
                     "running sum")
                << (Named == nullptr) << (Named ? Named->getName() : "")
                << Step.getSourceRange();
    if (auto Fix = zeroAfterStep(Step, Ctx))
      Diag << *Fix;
  }
  for (const CallExpr *Call : Loop.Chain)
    diag(Call->getExprLoc(), "the step runs in this call, made in the loop",
         DiagnosticIDs::Note);
  // A zero_grad of the same optimizer outside the loop runs once, not per
  // iteration.
  const ValueDecl *Wanted = canonical(Optimizer);
  const Stmt *Body = utils::enclosingFunctionBody(*Loop.Loop, Ctx);
  if (Wanted && Body)
    for (const BoundNodes &Found :
         match(findAll(cxxMemberCallExpr(callee(cxxMethodDecl(
                                             hasName("zero_grad"))))
                           .bind("zero")),
               *Body, Ctx)) {
      const auto *Zero = Found.getNodeAs<CXXMemberCallExpr>("zero");
      // Outside this loop, and run before it: not in a sibling loop.
      const Stmt *Around = utils::enclosingLoop(*Zero, Ctx);
      if (!Loop.Loop->getSourceRange().fullyContains(Zero->getSourceRange()) &&
          (!Around || Around->getSourceRange().fullyContains(
                          Loop.Loop->getSourceRange())) &&
          canonical(api::receiverObject(Zero->getImplicitObjectArgument())) == Wanted) {
        diag(Zero->getExprLoc(), "its gradients are cleared here, outside the "
                                 "loop: once, not on every iteration",
             DiagnosticIDs::Note);
        break;
      }
    }
  // Accumulation is LibTorch's documented behaviour on every device: the
  // probe has nothing device-specific to replay.
  plans::recordNotReplayable(getID(), Step.getExprLoc(),
                             Ctx.getSourceManager());
}

} // namespace clang::tidy::torch_tidy
