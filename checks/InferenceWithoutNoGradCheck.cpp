//===--- InferenceWithoutNoGradCheck.cpp - training-inference-without-no-grad //

#include "InferenceWithoutNoGradCheck.h"
#include "api/TorchApi.h"
#include "api/TrainingApi.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "utils/Execution.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void InferenceWithoutNoGradCheck::registerMatchers(MatchFinder *Finder) {
  auto Own = unless(isExpansionInSystemHeader());
  Finder->addMatcher(
      callExpr(anyOf(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("forward")))),
                     cxxOperatorCallExpr(hasOverloadedOperatorName("()"))),
               Own)
          .bind("forward"),
      this);
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(
                            hasAnyName("requires_grad_", "set_requires_grad"))),
                        Own)
          .bind("freeze"),
      this);
}

void InferenceWithoutNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *Forward = Result.Nodes.getNodeAs<CallExpr>("forward")) {
    if (api::forwardedModule(*Forward) && !Forward->getBeginLoc().isMacroID() &&
        !api::isInLibTorch(*Forward, *Ctx))
      Forwards.push_back(Forward);
  } else if (const auto *Freeze =
                 Result.Nodes.getNodeAs<CXXMemberCallExpr>("freeze")) {
    if (api::frozenTensor(*Freeze))
      Freezes.push_back(Freeze);
  }
}

const ValueDecl *
InferenceWithoutNoGradCheck::canonical(const ValueDecl *Object) const {
  return Object ? utils::canonicalObject(Object, *Calls, api::receiverObject) : nullptr;
}

/// The module whose parameters \p Freeze freezes: `p.requires_grad_(false)`
/// in `for (auto &p : m->parameters())` (or `named_parameters()`, through
/// `p.value()`).
static const ValueDecl *frozenModule(const CXXMemberCallExpr &Freeze,
                                     ASTContext &Ctx) {
  const Expr *Tensor = utils::ignoreTemporaries(api::frozenTensor(Freeze));
  while (const auto *Item = dyn_cast<CXXMemberCallExpr>(Tensor))
    Tensor = utils::ignoreTemporaries(Item->getImplicitObjectArgument());
  const auto *Ref = dyn_cast<DeclRefExpr>(Tensor);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return nullptr;
  DynTypedNodeList Parents = Ctx.getParents(*Var);
  if (!Parents.empty() && Parents[0].get<DeclStmt>())
    Parents = Ctx.getParents(Parents[0]);
  const auto *Loop =
      Parents.empty() ? nullptr : Parents[0].get<CXXForRangeStmt>();
  if (!Loop || Loop->getLoopVariable() != Var)
    return nullptr;
  const auto *Range = dyn_cast<CXXMemberCallExpr>(
      utils::ignoreTemporaries(Loop->getRangeInit()));
  if (!Range || !api::isParametersCall(*Range))
    return nullptr;
  return api::receiverObject(Range->getImplicitObjectArgument());
}

/// Whether a guard that turns autograd off is alive at \p S: a NoGradGuard,
/// an InferenceMode or `GradMode::set_enabled(false)` earlier in an enclosing
/// block, lambdas' enclosing blocks included.
static bool isGuarded(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return false;
    const auto *Block = Parents[0].get<CompoundStmt>();
    const Stmt *Child = Node.get<Stmt>();
    Node = Parents[0];
    if (!Block || !Child)
      continue;
    for (const Stmt *Before : Block->body()) {
      if (Before == Child)
        break;
      if (const auto *Decls = dyn_cast<DeclStmt>(Before)) {
        for (const Decl *D : Decls->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D);
              Var && api::disablesGradients(*Var))
            return true;
      } else if (const auto *Call = dyn_cast<CallExpr>(
                     Before->IgnoreContainers(true))) {
        if (api::isGradModeOff(*Call))
          return true;
      }
    }
  }
}

static bool isGradientCall(const Stmt &S) {
  const auto *Call = dyn_cast<CallExpr>(&S);
  return Call && (api::isBackward(*Call) || api::isAutogradGrad(*Call));
}

/// Whether running \p Root calls backward() or torch::autograd::grad().
static bool computesGradients(const Stmt &Root, ASTContext &Ctx) {
  return !utils::forEachExecuted(
      Root, Ctx, [](const Stmt &S, utils::CallChain) { return !isGradientCall(S); });
}

/// The variables a call of backward() or grad() reads.
static llvm::SmallVector<const VarDecl *, 4> readBy(const Stmt &Gradients) {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  llvm::SmallVector<const Stmt *, 8> Work = {&Gradients};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S)) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Vars.push_back(Var);
    } else if (S) {
      llvm::append_range(Work, S->children());
    }
  }
  return Vars;
}

/// Whether \p Body, after \p After, takes gradients of what \p Produced
/// tells was produced before: a variable it holds.
static bool
backpropagatesLater(const Stmt &Body, SourceLocation After, ASTContext &Ctx,
                    llvm::function_ref<bool(const VarDecl &)> Produced) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BoundNodes &Found :
       match(findAll(callExpr().bind("call")), Body, Ctx)) {
    const auto *Call = Found.getNodeAs<CallExpr>("call");
    if (!isGradientCall(*Call) ||
        !SM.isBeforeInTranslationUnit(After, Call->getBeginLoc()))
      continue;
    for (const VarDecl *Var : readBy(*Call))
      if (Produced(*Var))
        return true;
  }
  return false;
}

const Expr *InferenceWithoutNoGradCheck::inferenceEvidence(
    const CallExpr &Forward, const utils::LoopContext &Loop,
    const ValueDecl *Module) {
  ASTContext &Context = *Ctx;
  const SourceManager &SM = Context.getSourceManager();
  const ValueDecl *Wanted = canonical(Module);
  if (!Wanted || Frozen.contains(Wanted))
    return nullptr;
  const FunctionDecl *LoopFn = utils::enclosingFunction(*Loop.Loop, Context);
  if (!LoopFn || !LoopFn->getBody())
    return nullptr;
  // A guard in scope, here or at a call on the way.
  if (isGuarded(Forward, Context))
    return nullptr;
  for (const CallExpr *Call : Loop.Chain)
    if (isGuarded(*Call, Context))
      return nullptr;
  for (const CallExpr *Call : Calls->of(*LoopFn))
    if (isGuarded(*Call, Context))
      return nullptr;
  // Gradients wanted: in the iteration, or later of what the loop wrote or
  // of what the function returned.
  if (computesGradients(*Loop.Loop, Context))
    return nullptr;
  ExprMutationAnalyzer Writes(*Loop.Loop, Context);
  if (backpropagatesLater(*LoopFn->getBody(), Loop.Loop->getEndLoc(), Context,
                          [&](const VarDecl &Var) {
                            return !Loop.Loop->getSourceRange().fullyContains(
                                       Var.getSourceRange()) &&
                                   Writes.isMutated(&Var);
                          }))
    return nullptr;
  for (const CallExpr *Call : Calls->of(*LoopFn)) {
    const Stmt *Caller = utils::enclosingFunctionBody(*Call, Context);
    auto Holds = [&](const VarDecl &Var) {
      return (Var.getInit() &&
              Var.getInit()->getSourceRange().fullyContains(
                  Call->getSourceRange())) ||
             !match(findAll(binaryOperation(
                        isAssignmentOperator(),
                        hasLHS(ignoringParenImpCasts(
                            declRefExpr(to(varDecl(equalsNode(&Var)))))),
                        hasRHS(hasDescendant(callExpr(equalsNode(Call)))))),
                    *Caller, Context)
                  .empty();
    };
    if (Caller && backpropagatesLater(*Caller, Call->getEndLoc(), Context, Holds))
      return nullptr;
  }

  // The mode: eval() or train() in the iteration, else the last one before
  // the loop in its function, else before a call of that function, else in
  // the constructor of the class that holds the module.
  const Expr *Eval = nullptr;
  bool Trains = false;
  utils::forEachExecuted(*Loop.Loop, Context, [&](const Stmt &S,
                                                  utils::CallChain Chain) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(&S);
    if (!Call)
      return true;
    const Expr *Evaluated = api::evaluatedModule(*Call);
    const Expr *Trained = api::trainedModule(*Call);
    const Expr *Object = Evaluated ? Evaluated : Trained;
    if (!Object)
      return true;
    const ValueDecl *Of = api::receiverObject(Object);
    Of = canonical(Of ? utils::objectInCaller(Of, Chain, api::receiverObject) : nullptr);
    Trains |= Trained && (Of == Wanted || !Of);
    if (Evaluated && Of == Wanted && !Eval)
      Eval = Call;
    return true;
  });
  if (Trains)
    return nullptr;
  if (Eval)
    return Eval;
  auto LastModeBefore = [&](const Stmt &Body,
                            SourceLocation Before) -> const Expr * {
    const CXXMemberCallExpr *Last = nullptr;
    for (const BoundNodes &Found :
         match(findAll(cxxMemberCallExpr().bind("call")), Body, Context)) {
      const auto *Call = Found.getNodeAs<CXXMemberCallExpr>("call");
      const Expr *Object = api::evaluatedModule(*Call);
      if (!Object)
        Object = api::trainedModule(*Call);
      if (Object && canonical(api::receiverObject(Object)) == Wanted &&
          SM.isBeforeInTranslationUnit(Call->getEndLoc(), Before) &&
          (!Last ||
           SM.isBeforeInTranslationUnit(Last->getBeginLoc(), Call->getBeginLoc())))
        Last = Call;
    }
    return Last && api::evaluatedModule(*Last) ? Last : nullptr;
  };
  if (const Expr *Before =
          LastModeBefore(*LoopFn->getBody(), Loop.Loop->getBeginLoc()))
    return Before;
  for (const CallExpr *Call : Calls->of(*LoopFn))
    if (const Stmt *Caller = utils::enclosingFunctionBody(*Call, Context))
      if (const Expr *Before = LastModeBefore(*Caller, Call->getBeginLoc()))
        return Before;
  const auto *Field = dyn_cast<FieldDecl>(Wanted);
  const auto *Class =
      Field ? dyn_cast<CXXRecordDecl>(Field->getParent()) : nullptr;
  if (!Class)
    return nullptr;
  const Expr *InConstructor = nullptr;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const Stmt *Body = Method->getBody();
    if (!Body)
      continue;
    for (const BoundNodes &Found :
         match(findAll(cxxMemberCallExpr().bind("call")), *Body, Context)) {
      const auto *Call = Found.getNodeAs<CXXMemberCallExpr>("call");
      if (const Expr *Trained = api::trainedModule(*Call);
          Trained && api::receiverObject(Trained) == Field)
        return nullptr;
      if (const Expr *Evaluated = api::evaluatedModule(*Call);
          Evaluated && api::receiverObject(Evaluated) == Field &&
          isa<CXXConstructorDecl>(Method))
        InConstructor = Call;
    }
  }
  return InConstructor;
}

/// `torch::NoGradGuard no_grad;` as the first statement of the loop's body.
static std::optional<FixItHint> guardTheLoop(const Stmt &Loop,
                                             const FunctionDecl &Fn,
                                             ASTContext &Ctx) {
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(&Loop))
    Body = For->getBody();
  else if (const auto *While = dyn_cast<WhileStmt>(&Loop))
    Body = While->getBody();
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(&Loop))
    Body = Range->getBody();
  else if (const auto *Do = dyn_cast<DoStmt>(&Loop))
    Body = Do->getBody();
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block || Block->body_empty() || Block->getLBracLoc().isMacroID() ||
      Block->body_front()->getBeginLoc().isMacroID())
    return std::nullopt;
  // Not where the name is taken.
  if (!match(findAll(namedDecl(hasName("no_grad"))), *Fn.getBody(), Ctx)
           .empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation First = Block->body_front()->getBeginLoc();
  unsigned Column = SM.getSpellingColumnNumber(First);
  if (SM.getSpellingLineNumber(First) ==
      SM.getSpellingLineNumber(Block->getLBracLoc()))
    return std::nullopt;
  return FixItHint::CreateInsertion(
      First, "torch::NoGradGuard no_grad;\n" + std::string(Column - 1, ' '));
}

void InferenceWithoutNoGradCheck::report(const CallExpr &Forward,
                                         const utils::LoopContext &Loop,
                                         const ValueDecl *Module,
                                         const Expr &Eval) {
  {
    auto Diag = diag(Forward.getExprLoc(),
                     "'%0' runs forward in a loop of evaluation code with "
                     "autograd on: no torch::NoGradGuard or c10::InferenceMode "
                     "is in scope, so each call records an autograd graph and "
                     "keeps its activations for a backward that never comes "
                     "(memory and time on every iteration)")
                << Module->getName() << Forward.getSourceRange();
    const FunctionDecl *LoopFn = utils::enclosingFunction(*Loop.Loop, *Ctx);
    if (LoopFn && Loop.Chain.empty())
      if (auto Fix = guardTheLoop(*Loop.Loop, *LoopFn, *Ctx))
        Diag << *Fix;
  }
  diag(Eval.getExprLoc(), "the module is put in evaluation mode here",
       DiagnosticIDs::Note);
  for (const CallExpr *Call : Loop.Chain)
    diag(Call->getExprLoc(), "the forward runs in this call, made in the loop",
         DiagnosticIDs::Note);
  // What autograd records is the same on every device: nothing to replay.
  plans::recordNotReplayable(getID(), Forward.getExprLoc(),
                             Ctx->getSourceManager());
}

/// The module whose forward \p Forward runs, as the function of \p Loop
/// names it: `model` for `model->forward(x)` in a helper given `model`, and
/// for `forward(x)` in a method the loop calls as `model->predict(x)`.
static const ValueDecl *moduleInLoop(const CallExpr &Forward,
                                     const utils::LoopContext &Loop) {
  const Expr *Object = api::forwardedModule(Forward);
  utils::CallChain Chain = Loop.Chain;
  const ValueDecl *Module = api::receiverObject(Object);
  if (!Module && isa<CXXThisExpr>(Object->IgnoreParenImpCasts())) {
    // The object of the method's call, one step out.
    const auto *Method =
        Chain.empty() ? nullptr : dyn_cast<CXXMemberCallExpr>(Chain.back());
    if (!Method)
      return nullptr;
    Module = api::receiverObject(Method->getImplicitObjectArgument());
    Chain = Chain.drop_back();
  }
  return Module ? utils::objectInCaller(Module, Chain, api::receiverObject) : nullptr;
}

void InferenceWithoutNoGradCheck::onEndOfTranslationUnit() {
  if (Ctx && !Forwards.empty()) {
    Calls = std::make_unique<utils::CallSites>(*Ctx);
    for (const CXXMemberCallExpr *Freeze : Freezes)
      if (const ValueDecl *Module = canonical(frozenModule(*Freeze, *Ctx)))
        Frozen.insert(Module);
    llvm::DenseSet<unsigned> Reported;
    for (const CallExpr *Forward : Forwards) {
      if (Reported.contains(Forward->getExprLoc().getRawEncoding()))
        continue;
      for (const utils::LoopContext &Loop :
           utils::loopsRunning(*Forward, *Calls, *Ctx)) {
        const ValueDecl *Module = moduleInLoop(*Forward, Loop);
        if (!Module)
          continue;
        if (const Expr *Eval = inferenceEvidence(*Forward, Loop, Module)) {
          Reported.insert(Forward->getExprLoc().getRawEncoding());
          report(*Forward, Loop, Module, *Eval);
          break;
        }
      }
    }
  }
  Ctx = nullptr;
  Forwards.clear();
  Freezes.clear();
  Frozen.clear();
  Calls.reset();
}

} // namespace clang::tidy::torch_tidy
