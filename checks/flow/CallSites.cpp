//===--- CallSites.cpp - Calls of the translation unit's own functions ----===//

#include "CallSites.h"
#include "ModuleInSight.h"
#include "TranslationUnitAnalysis.h"
#include "api/Optimizers.h"
#include "api/TensorMethods.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::flow {

TensorValue CallSites::returnedBy(const CallExpr &Call, Evaluator &Eval) {
  if (const FunctionFacts *Facts = analyzeCallee(Call, Eval))
    return Facts->Returned;
  return TU.assumedReturn(Call, "");
}

TensorValue CallSites::assumedField(const CallExpr &Call,
                                    const FieldDecl &Field) {
  if (!Field.getDeclName().isIdentifier())
    return TensorValue::unknown();
  return TU.assumedReturn(Call, Field.getName());
}

static bool isCallOnThis(const CallExpr &Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  return Member &&
         isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreImplicit());
}

static bool isLambdaCall(const FunctionDecl &Fn) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Fn);
  return Method && Method->getParent()->isLambda();
}

const FunctionFacts *CallSites::analyzeCallee(const CallExpr &Call,
                                              Evaluator &Eval) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  // `opt.step(closure)` runs the closure here, as a direct call would.
  if (const Expr *Closure = api::closureRunByStep(Call))
    if (const CXXMethodDecl *Run = utils::lambdaCallOperator(*Closure))
      Callee = Run;
  const FunctionDecl *Definition = TU.followedDefinition(Callee);
  if (!Definition) {
    if (Callee && !Callee->isDefined())
      supplyAcceleratorArguments(Call, *Callee, Eval);
    return nullptr;
  }
  CallContext Context = contextOf(Call);
  State Entry = arguments(Call, *Definition, Context, Eval);
  bool Known = !Context.Arguments.empty() || !Entry.Modules.empty();
  if (isCallOnThis(Call) || isLambdaCall(*Definition)) {
    // A method called on `this` sees the fields as they are here; a lambda
    // sees the variables it captures.
    for (const auto &[Place, Value] : Eval.state().Tensors)
      if (isLambdaCall(*Definition) || isa<FieldDecl>(Place.Base))
        Known |= Entry.Tensors.emplace(Place, Value).second;
    for (const auto &[Decl, Value] : Eval.state().Modules)
      if (isLambdaCall(*Definition) || isa<FieldDecl>(Decl))
        Known |= Entry.Modules.emplace(Decl, Value).second;
  }
  if (!Known || Context.Chain.size() > MaxCallDepth)
    return &TU.root(*Definition);
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && !isCallOnThis(Call) && !Method->getParent()->isLambda())
    // Another object of the class: its fields as the class keeps them.
    for (const auto &[Place, Value] :
         TU.classFacts(*Method->getParent()).Fields.Tensors)
      Entry.Tensors.emplace(Place, Value);
  return &TU.inContext(*Definition, std::move(Entry), std::move(Context));
}

void CallSites::enterForward(const CallExpr &Call, const ValueDecl &Module,
                             Evaluator &Eval) {
  const ModuleValue *Moved = Eval.state().module(&Module);
  const CXXRecordDecl *Record = api::heldModule(Module.getType());
  if (!Moved || Moved->Device != Place::Accelerator || !Record ||
      (Own && Own->Chain.size() >= MaxCallDepth))
    return;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  const FunctionDecl *Definition = TU.followedDefinition(
      Member ? Member->getMethodDecl() : api::forwardMethodOf(*Record));
  if (!Definition)
    return;
  CallContext Context = contextOf(Call);
  Context.Module = &Module;
  Context.ModuleClass = Record;
  Context.ModuleDevice = onModuleDevice(*Moved);
  State Entry = arguments(Call, *Definition, Context, Eval);
  // A CPU input is reported at this call (device-unmoved-input); inside, it
  // would only be reported again at each layer it reaches.
  llvm::erase_if(Context.Arguments, [](const Operand &Argument) {
    return Argument.Value.Device == Place::Cpu;
  });
  for (auto It = Entry.Tensors.begin(); It != Entry.Tensors.end();)
    It = It->second.Device == Place::Cpu ? Entry.Tensors.erase(It)
                                         : std::next(It);
  State Members = TU.movedMembers(*Record, *Moved);
  Entry.Tensors.insert(Members.Tensors.begin(), Members.Tensors.end());
  Entry.Modules.insert(Members.Modules.begin(), Members.Modules.end());
  TU.inContext(*Definition, std::move(Entry), std::move(Context));
}

void CallSites::supplyAcceleratorArguments(const CallExpr &Call,
                                           const FunctionDecl &Callee,
                                           Evaluator &Eval) {
  // Defined in another translation unit: it may need to know.
  if (api::isLibTorchInternal(&Callee) || Callee.isInStdNamespace() ||
      TU.context().getSourceManager().isInSystemHeader(Callee.getLocation()))
    return;
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee);
  for (unsigned I = 0; I < Callee.getNumParams() && I + Offset < Call.getNumArgs();
       ++I) {
    QualType Type = Callee.getParamDecl(I)->getType().getNonReferenceType();
    const Expr *Arg = Call.getArg(I + Offset);
    if (api::heldModule(Type)) {
      supplyModuleArgument(Call, Callee, I, *Arg, Eval);
      continue;
    }
    if (!api::isTensorType(Type) && !api::holdsTensors(Type))
      continue;
    TensorValue Value = Eval.tensor(Arg);
    if (Value.Device == Place::Accelerator)
      TU.supplyCall(Call, Callee, I, {Arg, Value});
  }
}

void CallSites::supplyModuleArgument(const CallExpr &Call,
                                     const FunctionDecl &Callee, unsigned Param,
                                     const Expr &Arg, Evaluator &Eval) {
  const auto *Module = dyn_cast_or_null<VarDecl>(api::moduleReceiver(&Arg));
  const ModuleValue *Known = Module ? Eval.state().module(Module) : nullptr;
  if (!Known)
    return;
  // On the CPU: a module this function builds, which nothing but this call
  // may move.
  if (Known->Device == Place::Accelerator ||
      (Known->Device == Place::Cpu && !Known->MovedAt &&
       !isa<ParmVarDecl>(Module) &&
       movedOnlyInSight(*Module, TU.context(), &Call)))
    TU.supplyModuleCall(Call, Callee, Param, Arg, *Known);
}

CallContext CallSites::contextOf(const CallExpr &Call) const {
  CallContext Context;
  if (Own)
    Context.Chain = Own->Chain;
  Context.Chain.push_back(&Call);
  return Context;
}

State CallSites::arguments(const CallExpr &Call, const FunctionDecl &Definition,
                           CallContext &Context, Evaluator &Eval) {
  State Entry;
  // `a(b)` through an operator method: the object is argument 0.
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Definition);
  for (unsigned I = 0;
       I + Offset < Call.getNumArgs() && I < Definition.getNumParams(); ++I) {
    const ParmVarDecl *Param = Definition.getParamDecl(I);
    const Expr *Arg = Call.getArg(I + Offset);
    QualType Type = Param->getType().getNonReferenceType();
    if (api::heldModule(Type)) {
      const ValueDecl *Module = api::moduleReceiver(Arg);
      const ModuleValue *Known = Module ? Eval.state().module(Module) : nullptr;
      if (Known && Known->Device == Place::Accelerator)
        Entry.Modules[Param] = *Known;
      continue;
    }
    if (!api::isTensorType(Type) && !api::holdsTensors(Type))
      continue;
    TensorValue Value = Eval.tensor(Arg);
    if (Value.isUnknown())
      continue;
    Entry.Tensors[Location(Param)] = Value;
    Context.Arguments.push_back({Arg, Value});
  }
  return Entry;
}

} // namespace clang::tidy::torch_tidy::flow
