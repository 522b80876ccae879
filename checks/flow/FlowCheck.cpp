//===--- FlowCheck.cpp - Base of the checks that read the device dataflow -===//

#include "FlowCheck.h"
#include "ConflictPlan.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy::flow {

void FlowCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasBody(stmt()),
                                  unless(isExpansionInSystemHeader()))
                         .bind("function"),
                     this);
}

void FlowCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("function");
  ASTContext &Ctx = *Result.Context;
  if (Fn->isDependentContext() || api::isLibTorchInternal(Fn) ||
      !namesAccelerator(Ctx))
    return;
  report(analyze(*Fn, Ctx), Ctx);
}

void FlowCheck::onStartOfTranslationUnit() {
  Reported.clear();
  resetTranslationUnit();
}

std::vector<const Conflict *> FlowCheck::conflictsOf(const FunctionFacts &Facts,
                                                     Conflict::Kind Cause) {
  std::vector<const Conflict *> Out;
  for (const Conflict &C : Facts.Conflicts) {
    if (C.Cause != Cause)
      continue;
    // A root cause met at several operations is reported once.
    const Expr *Key = Cause == Conflict::FactoryWithoutDevice ? C.Cpu.Source
                                                              : C.Sink;
    if (Reported.insert(Key).second)
      Out.push_back(&C);
  }
  return Out;
}

std::string FlowCheck::quoted(const Expr *E, const ASTContext &Ctx,
                              llvm::StringRef Fallback) {
  if (E)
    if (auto Text = utils::sourceText(*E, Ctx))
      return "'" + *Text + "'";
  return Fallback.str();
}

std::string FlowCheck::operationName(const Expr *Sink) {
  const auto *Call = dyn_cast<CallExpr>(Sink);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return "the operation";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Call) {
    const CXXRecordDecl *Loss = api::heldModule(Op->getArg(0)->getType());
    if (!Loss)
      return "the loss";
    return "the loss '" + Loss->getName().drop_back(
                              Loss->getName().ends_with("Impl") ? 4 : 0).str() +
           "'";
  }
  return "'" + Callee->getNameAsString() + "'";
}

void FlowCheck::noteAcceleratorOrigin(const TensorValue &Value,
                                      const ASTContext &Ctx) {
  if (!Value.Source)
    return;
  std::string Device = describeDevice(Value, Ctx);
  switch (Value.From) {
  case Origin::Moved:
    diag(Value.Source->getBeginLoc(), "moved to %0 here", DiagnosticIDs::Note)
        << Device;
    break;
  case Origin::ModuleOutput:
    diag(Value.Source->getBeginLoc(),
         "the module that computes it is moved to %0 here",
         DiagnosticIDs::Note)
        << Device;
    break;
  default:
    diag(Value.Source->getBeginLoc(), "created on %0 here",
         DiagnosticIDs::Note)
        << Device;
  }
}

std::optional<FixItHint> FlowCheck::moveTo(const Expr &Operand,
                                           const Expr *Device,
                                           const ASTContext &Ctx) {
  if (!Device || !utils::namedObject(*Device) ||
      Operand.getEndLoc().isMacroID())
    return std::nullopt;
  auto Text = utils::sourceText(*Device, Ctx);
  if (!Text)
    return std::nullopt;
  SourceLocation End = Lexer::getLocForEndOfToken(
      Operand.getEndLoc(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  return FixItHint::CreateInsertion(End, ".to(" + *Text + ")");
}

void FlowCheck::recordConflictPlan(const Conflict &C, SourceLocation At,
                                   const ASTContext &Ctx) {
  if (auto Plan = conflictPlan(C, getID(),
                               "devices meet at " + operationName(C.Sink)))
    plans::recordPlan(getID(), At, Ctx.getSourceManager(), std::move(*Plan));
  else
    plans::recordNotReplayable(getID(), At, Ctx.getSourceManager());
}

} // namespace clang::tidy::torch_tidy::flow
