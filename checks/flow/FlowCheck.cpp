//===--- FlowCheck.cpp - Base of the checks that read the device dataflow -===//

#include "FlowCheck.h"
#include "ConflictPlan.h"
#include "TranslationUnitAnalysis.h"
#include "api/Optimizers.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "utils/RecordedPlace.h"
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
  if (Fn->isDependentContext() || api::isLibTorchInternal(Fn))
    return;
  TranslationUnitAnalysis &TU = TranslationUnitAnalysis::of(Ctx);
  if (!Analysed) {
    // A file that never names an accelerator may get its devices from
    // another: its findings then hold only if another file names one.
    UnitCondition.reset();
    if (!TU.namesAccelerator()) {
      if (!crossFileRecorder())
        return;
      UnitCondition = Need{Need::ProgramNamesAccelerator, ""};
    }
  }
  Analysed = &Ctx;
  Condition = UnitCondition;
  report(TU.root(*Fn), Ctx);
  Condition.reset();
  if (TU.movedClassContext(*Fn))
    MovedClassMethods.push_back(Fn);
}

void FlowCheck::onStartOfTranslationUnit() {
  Reported.clear();
  MovedClassMethods.clear();
  Analysed = nullptr;
  ContextsReported = 0;
  TranslationUnitAnalysis::reset();
}

void FlowCheck::reportContexts(ASTContext &Ctx) {
  // Reporting may analyse more contexts: index, not iterators.
  const auto &Contexts = TranslationUnitAnalysis::of(Ctx).contextFacts();
  for (; ContextsReported < Contexts.size(); ++ContextsReported) {
    Condition = Contexts[ContextsReported].Condition
                    ? Contexts[ContextsReported].Condition
                    : UnitCondition;
    report(*Contexts[ContextsReported].Facts, Ctx);
  }
  Condition.reset();
}

void FlowCheck::onEndOfTranslationUnit() {
  if (!Analysed)
    return;
  reportContexts(*Analysed);
  // The methods of a class moved somewhere in the file, with its members
  // on the device: after the calls, whose notes name the call that moved.
  TranslationUnitAnalysis &TU = TranslationUnitAnalysis::of(*Analysed);
  Condition = UnitCondition;
  for (const FunctionDecl *Fn : MovedClassMethods)
    report(*TU.movedClassContext(*Fn), *Analysed);
  Condition.reset();
  MovedClassMethods.clear();
  reportContexts(*Analysed);
  // Last, what holds only if other translation units supply it: a finding
  // that holds here anyway was reported above.
  for (const auto &Entry : TU.hypotheses()) {
    Condition = Entry.Condition;
    report(*Entry.Facts, *Analysed);
  }
  Condition.reset();
  reportContexts(*Analysed);
  Analysed = nullptr;
}

DiagnosticBuilder FlowCheck::finding(SourceLocation Loc, StringRef Message) {
  NotedOrigin = nullptr;
  if (CrossFileRecorder *Recorder = crossFileRecorder(); Recorder && Condition)
    if (auto At = utils::recordedPlace(Loc, Analysed->getSourceManager()))
      Recorder->conditional(getID(), *At, *Condition);
  return diag(Loc, Message);
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
  const CallContext &Context = *Facts.Context;
  const std::vector<const CallExpr *> &Chain = Context.Chain;
  if (Chain.empty()) {
    // A method of a class moved somewhere in the file (unless a note at
    // that move was given already).
    if (Context.ModuleClass && Context.ModuleDevice.Source &&
        Context.ModuleDevice.Source != NotedOrigin)
      diag(Context.ModuleDevice.Source->getBeginLoc(),
           "'%0' is moved to %1 here: its forward() sees its parameters and "
           "inputs there",
           DiagnosticIDs::Note)
          << api::moduleName(*Context.ModuleClass)
          << describeDevice(Context.ModuleDevice, Ctx);
    return;
  }
  // The arguments that put the callee on a device: the accelerator ones if
  // any, else those on the CPU.
  std::vector<std::string> Passed;
  for (Place Wanted : {Place::Accelerator, Place::Cpu}) {
    for (const Operand &Arg : Context.Arguments) {
      std::string Text =
          quoted(Arg.E, Ctx, "a tensor") +
          (Arg.Value.Device == Place::Cpu
               ? " on the CPU"
               : " on " + describeDevice(Arg.Value, Ctx));
      if (Arg.Value.Device == Wanted && !llvm::is_contained(Passed, Text))
        Passed.push_back(Text);
    }
    if (!Passed.empty())
      break;
  }
  if (Context.Module)
    // A forward() of a moved module: its registered members are there.
    diag(Chain.back()->getBeginLoc(),
         "'%0' of '%1' runs here, after the module is moved to %2%select{| "
         "and called with %4}3",
         DiagnosticIDs::Note)
        << "forward" << Context.Module->getName()
        << describeDevice(Context.ModuleDevice, Ctx) << !Passed.empty()
        << llvm::join(Passed, ", ");
  else if (const Expr *Closure = api::closureRunByStep(*Chain.back()))
    diag(Chain.back()->getBeginLoc(), "'%0' runs %1 here", DiagnosticIDs::Note)
        << calleeName(*Chain.back()) << quoted(Closure, Ctx, "its closure");
  else
    diag(Chain.back()->getBeginLoc(),
         "'%0' is called here%select{| with %2}1", DiagnosticIDs::Note)
        << calleeName(*Chain.back()) << !Passed.empty()
        << llvm::join(Passed, ", ");
  for (size_t I = Chain.size() - 1; I-- > 0;)
    diag(Chain[I]->getBeginLoc(), "'%0' is called here", DiagnosticIDs::Note)
        << calleeName(*Chain[I]);
}

std::vector<const Meeting *> FlowCheck::meetingsOwned(
    const FunctionFacts &Facts, llvm::function_ref<bool(const Meeting &)> Owns,
    llvm::function_ref<const Expr *(const Meeting &)> KeyOf) {
  std::vector<const Meeting *> Out;
  for (const Meeting &M : Facts.Meetings)
    // A root cause met at several operations is reported once.
    if (Owns(M) && Reported.insert(KeyOf(M)).second)
      Out.push_back(&M);
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
    return "the loss '" + api::moduleName(*Loss) + "'";
  }
  return "'" + Callee->getNameAsString() + "'";
}

void FlowCheck::noteAcceleratorOrigin(const TensorValue &Value,
                                      const ASTContext &Ctx) {
  if (!Value.Source)
    return;
  NotedOrigin = Value.Source;
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
        llvm::is_contained(api::devicesInScope(Operand, Ctx), Named)))
    return std::nullopt;
  auto Text = utils::sourceText(*Device, Ctx);
  if (!Text)
    return std::nullopt;
  SourceLocation End = Lexer::getLocForEndOfToken(
      Operand.getEndLoc(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  return FixItHint::CreateInsertion(End, ".to(" + *Text + ")");
}

void FlowCheck::recordMeetingPlan(const Meeting &M, SourceLocation At,
                                  const ASTContext &Ctx) {
  if (auto Plan = meetingPlan(M, getID(),
                              "devices meet at " + operationName(M.Sink)))
    plans::recordPlan(getID(), At, Ctx.getSourceManager(), std::move(*Plan));
  else
    plans::recordNotReplayable(getID(), At, Ctx.getSourceManager());
}

} // namespace clang::tidy::torch_tidy::flow
