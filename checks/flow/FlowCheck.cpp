//===--- FlowCheck.cpp - Base of the checks that read the device dataflow -===//

#include "FlowCheck.h"
#include "ConflictPlan.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

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
  Analysed = &Ctx;
  report(analyze(*Fn, Ctx), Ctx);
}

void FlowCheck::onStartOfTranslationUnit() {
  Reported.clear();
  Analysed = nullptr;
  resetTranslationUnit();
}

void FlowCheck::onEndOfTranslationUnit() {
  if (!Analysed)
    return;
  for (const FunctionFacts *Facts : contextFacts(*Analysed))
    report(*Facts, *Analysed);
  Analysed = nullptr;
}

/// The name of the function \p Call calls.
static std::string calleeName(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee ? Callee->getNameAsString() : "the function";
}

void FlowCheck::noteCallChain(const FunctionFacts &Facts,
                              const ASTContext &Ctx) {
  if (!Facts.Context)
    return;
  const std::vector<const CallExpr *> &Chain = Facts.Context->Chain;
  // The arguments that put the callee on a device: the accelerator ones if
  // any, else those on the CPU.
  std::vector<std::string> Passed;
  for (Place Wanted : {Place::Accelerator, Place::Cpu}) {
    for (const auto &[Arg, Value] : Facts.Context->Arguments) {
      std::string Text =
          quoted(Arg, Ctx, "a tensor") +
          (Value.Device == Place::Cpu ? " on the CPU"
                                      : " on " + describeDevice(Value, Ctx));
      if (Value.Device == Wanted && !llvm::is_contained(Passed, Text))
        Passed.push_back(Text);
    }
    if (!Passed.empty())
      break;
  }
  const CallContext &Context = *Facts.Context;
  if (Context.Module)
    // A forward() of a moved module: its registered members are there.
    diag(Chain.back()->getBeginLoc(),
         "'%0' of '%1' runs here, after the module is moved to %2%select{| "
         "and called with %4}3",
         DiagnosticIDs::Note)
        << "forward" << Context.Module->getName()
        << describeDevice(Context.ModuleDevice, Ctx) << !Passed.empty()
        << llvm::join(Passed, ", ");
  else
    diag(Chain.back()->getBeginLoc(), "'%0' is called here with %1",
         DiagnosticIDs::Note)
        << calleeName(*Chain.back()) << llvm::join(Passed, ", ");
  for (size_t I = Chain.size() - 1; I-- > 0;)
    diag(Chain[I]->getBeginLoc(), "'%0' is called here", DiagnosticIDs::Note)
        << calleeName(*Chain[I]);
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
                                           ASTContext &Ctx) {
  const ValueDecl *Named = Device ? utils::namedObject(*Device) : nullptr;
  const auto *Var = dyn_cast_or_null<VarDecl>(Named);
  // The device of a caller's context may not be visible here.
  if (!Named || Operand.getEndLoc().isMacroID() ||
      !((Var && Var->hasGlobalStorage() && !Var->isStaticLocal()) ||
        llvm::is_contained(utils::devicesInScope(Operand, Ctx), Named)))
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
