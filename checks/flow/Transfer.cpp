//===--- Transfer.cpp - What a statement does to the dataflow state -------===//

#include "Transfer.h"
#include "LocalVariables.h"
#include "api/TensorMethods.h"
#include "utils/AstHelpers.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::flow {

void Transfer::block(const CFGBlock &Block, State &S) {
  Evaluator Eval(Ctx, S, Locals, &Calls);
  Eval.recordInto(Recording ? &Recording->Values : nullptr);
  for (const CFGElement &Element : Block) {
    if (auto Statement = Element.getAs<CFGStmt>())
      statement(*Statement->getStmt(), S, Eval);
    else if (auto Init = Element.getAs<CFGInitializer>())
      initializer(*Init->getInitializer(), S, Eval);
  }
}

void Transfer::set(State &Current, const Location &Place,
                   const TensorValue &Value) {
  WrittenTensors.insert(Place);
  if (Value.isUnknown())
    Current.Tensors.erase(Place);
  else
    Current.Tensors[Place] = Value;
}

void Transfer::statement(const Stmt &S, State &Current, Evaluator &Eval) {
  if (const auto *Return = dyn_cast<ReturnStmt>(&S)) {
    if (Recording && Return->getRetValue())
      recordReturn(*Return->getRetValue(), Current, Eval);
    return;
  }
  if (const auto *Decls = dyn_cast<DeclStmt>(&S)) {
    for (const Decl *D : Decls->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        declare(*Var, Current, Eval);
    return;
  }
  const auto *Call = dyn_cast<CallExpr>(&S);
  if (!Call)
    return;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    assign(Op->getArg(0), Op->getArg(1), Current, Eval);
    return;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (api::isModuleTo(*Member)) {
      moveModule(*Member, Current, Eval);
      return;
    }
    if (updateContainer(*Member, Current, Eval) ||
        markRequiresGrad(*Member, Current, Eval))
      return;
  }
  if (std::optional<api::CheckpointLoad> Load = api::checkpointLoad(*Call))
    loadCheckpoint(*Call, *Load, Current, Eval);
  applyEffects(*Call, Calls.analyzeCallee(*Call, Eval), Current, Eval);
  if (!Recording)
    return;
  recordValues(*Call, Eval);
  // `criterion(out, target)` is a loss, not a forward to check the input of.
  const ValueDecl *Module = Evaluator::forwardedModule(*Call);
  if (Module && !api::isLossModule(api::heldModule(Module->getType()))) {
    Calls.enterForward(*Call, *Module, Eval);
    recordForward(*Call, *Module, Eval);
    if (api::takesStateOnItsDevice(api::heldModule(Module->getType())))
      recordStateMeeting(*Call, Eval);
    return;
  }
  recordOperation(*Call, Eval);
}

void Transfer::recordReturn(const Expr &Value, const State &Current,
                            Evaluator &Eval) {
  Recording->Returned = join(Recording->Returned, Eval.tensor(&Value));
  // A local aggregate: field by field.
  std::map<const ValueDecl *, TensorValue> Fields;
  Location Returned = Eval.locationOf(&Value);
  const CXXRecordDecl *Record = Value.getType()->getAsCXXRecordDecl();
  const auto *List = dyn_cast<InitListExpr>(utils::ignoreTemporaries(&Value));
  if (Returned.Base && !Returned.Member && Record &&
      api::holdsTensors(Value.getType()))
    for (const FieldDecl *Field : Record->fields()) {
      auto It = Current.Tensors.find(Location(Returned.Base, Field));
      if (It != Current.Tensors.end())
        Fields.emplace(Field, It->second);
    }
  else if (List && Record && Record->isAggregate() &&
           !Record->isInStdNamespace())
    // `return {x, y};` of the user's aggregate: field by field.
    for (const FieldDecl *Field : Record->fields())
      if (Field->getFieldIndex() < List->getNumInits() &&
          api::isTensorValued(Field->getType()))
        if (TensorValue Init =
                Eval.tensor(List->getInit(Field->getFieldIndex()));
            !Init.isUnknown())
          Fields.emplace(Field, Init);
  if (!Recording->SeenReturn) {
    Recording->ReturnedFields = std::move(Fields);
  } else {
    for (auto It = Recording->ReturnedFields.begin();
         It != Recording->ReturnedFields.end();) {
      auto Other = Fields.find(It->first);
      if (Other == Fields.end()) {
        It = Recording->ReturnedFields.erase(It);
        continue;
      }
      It->second = join(It->second, Other->second);
      ++It;
    }
  }
  Recording->SeenReturn = true;
}

void Transfer::fieldsFromCall(const VarDecl &Var, const Expr *Init,
                              State &Current, Evaluator &Eval) {
  // `auto b = buffer.sample(n);` of a function returning a local aggregate.
  const auto *Call = Init ? dyn_cast<CallExpr>(utils::ignoreTemporaries(Init))
                          : nullptr;
  if (!Call)
    return;
  if (const FunctionFacts *Callee = Calls.analyzeCallee(*Call, Eval)) {
    for (const auto &[Field, Value] : Callee->ReturnedFields)
      set(Current, Location(&Var, Field), Value);
    return;
  }
  // Defined in another translation unit: what a hypothesis on its return
  // assumes, field by field.
  if (const CXXRecordDecl *Record = Var.getType()->getAsCXXRecordDecl())
    for (const FieldDecl *Field : Record->fields())
      if (TensorValue Assumed = Calls.assumedField(*Call, *Field);
          !Assumed.isUnknown())
        set(Current, Location(&Var, Field), Assumed);
}

void Transfer::initializer(const CXXCtorInitializer &Init, State &Current,
                           Evaluator &Eval) {
  const FieldDecl *Field = Init.getMember();
  if (!Field || !api::isTensorValued(Field->getType()))
    return;
  const Expr *Value = Init.getInit();
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Value))
    Value = Default->getExpr();
  set(Current, Location(Field), Eval.tensor(Value));
}

void Transfer::declare(const VarDecl &Var, State &Current, Evaluator &Eval) {
  QualType Type = Var.getType();
  const Expr *Init = Var.getInit();
  if (api::heldModule(Type)) {
    ModuleValue Module;
    // Built here (`Net net(...)`, `std::make_shared<Net>()`) without a
    // device argument: its parameters start on the CPU.
    if (Init && !Type->isReferenceType() && api::isBuiltWithoutDevice(*Init))
      Module.Device = Place::Cpu;
    Current.Modules[&Var] = Module;
    return;
  }
  const Expr *Range = Locals.loopRange(&Var);
  if (const auto *Bindings = dyn_cast<DecompositionDecl>(&Var)) {
    // `auto [a, b] = pair;`, `for (auto &[name, t] : map)`: each binding
    // gets the join of the elements; `auto [data, target] = batch;` of a
    // DataLoader's batch, each its field.
    bool Batch = api::isDataExample(Type);
    if (Batch)
      declareBatch(Var, Current);
    TensorValue Value = Range ? Eval.tensor(Range)
                        : Init ? Eval.tensor(Init)
                               : TensorValue::unknown();
    for (const BindingDecl *Binding : Bindings->bindings())
      if (api::isTensorValued(Binding->getType()))
        set(Current, Location(Binding),
            Batch && Binding->getBinding() ? Eval.tensor(Binding->getBinding())
                                           : Value);
    return;
  }
  if (api::isDataExample(Type)) {
    declareBatch(Var, Current);
    return;
  }
  if (!api::isTensorValued(Type))
    return;
  if (Range) {
    set(Current, Location(&Var), Eval.tensor(Range));
    return;
  }
  bool Container = api::holdsTensors(Type);
  Current.forgetMembers(&Var);
  const Expr *Bare = Init ? utils::ignoreTemporaries(Init) : nullptr;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Bare);
  if (Container && (!Init || (Construct && Construct->getNumArgs() == 0))) {
    // `std::vector<torch::Tensor> outs;`: its first element decides.
    set(Current, Location(&Var), TensorValue::emptySequence());
    return;
  }
  const auto *List = dyn_cast_or_null<InitListExpr>(Bare);
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (Container && List && Record && Record->isAggregate() &&
      !Record->isInStdNamespace()) {
    // `Batch b{x, y};`: field by field.
    set(Current, Location(&Var), TensorValue::emptySequence());
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields()) {
      if (I < List->getNumInits() && api::isTensorValued(Field->getType()))
        set(Current, Location(&Var, Field), Eval.tensor(List->getInit(I)));
      ++I;
    }
    return;
  }
  set(Current, Location(&Var), Init ? Eval.tensor(Init) : TensorValue::unknown());
  if (Container)
    fieldsFromCall(Var, Init, Current, Eval);
}

void Transfer::declareBatch(const VarDecl &Var, State &Current) {
  Current.forgetMembers(&Var);
  const CXXRecordDecl *Record =
      Var.getType().getNonReferenceType()->getAsCXXRecordDecl();
  TensorValue Batch = TensorValue::cpu();
  Batch.From = Origin::DataBatch;
  for (const FieldDecl *Field : Record->fields())
    if (api::isTensorType(Field->getType()))
      set(Current, Location(&Var, Field), Batch);
}

/// `std::tie(a, b)`: the call that binds references to assign through.
static const CallExpr *tieOf(const Expr *Target) {
  const auto *Call = dyn_cast<CallExpr>(utils::ignoreTemporaries(Target));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->isInStdNamespace() &&
                 Callee->getDeclName().isIdentifier() && Callee->getName() == "tie"
             ? Call
             : nullptr;
}

void Transfer::assign(const Expr *Target, const Expr *Value, State &Current,
                      Evaluator &Eval) {
  // `std::tie(mu, v) = model->forward(x);`: each gets the join of the
  // elements, as structured bindings do.
  if (const CallExpr *Tie = tieOf(Target)) {
    TensorValue New = Eval.tensor(Value);
    for (const Expr *Arg : Tie->arguments())
      if (Location Place = Eval.locationOf(Arg);
          Place.Base && api::isTensorValued(Arg->getType()))
        set(Current, Place, New);
    return;
  }
  if (!api::isTensorValued(Target->getType()))
    return;
  Location Place = Eval.locationOf(Target);
  TensorValue New = Eval.tensor(Value);
  if (Place.Base) {
    if (!Place.Member)
      Current.forgetMembers(Place.Base);
    set(Current, Place, New);
    writeThroughAlias(Place.Base, New, Current, Eval);
    return;
  }
  // One element of a container: `m[k] = t`, `v.at(i) = t`, `v.back() = t`.
  Location Whole = containerOf(Target, Eval);
  if (Whole.Base)
    set(Current, Whole, join(Current.tensor(Whole), New));
}

Location Transfer::containerOf(const Expr *Element, Evaluator &Eval) {
  const Expr *Bare = utils::ignoreTemporaries(Element);
  const Expr *Container = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Bare);
      Op && Op->getOperator() == OO_Subscript)
    Container = Op->getArg(0);
  else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Bare))
    Container = Member->getImplicitObjectArgument();
  else if (const auto *Member = dyn_cast<MemberExpr>(Bare))
    Container = Member->getBase(); // `pair.second` of an element
  if (!Container || !api::holdsTensors(Container->getType()))
    return Location();
  Location Whole = Eval.locationOf(Container);
  return Whole.Base ? Whole : containerOf(Container, Eval);
}

void Transfer::writeThroughAlias(const ValueDecl *Reference,
                                 const TensorValue &Value, State &Current,
                                 Evaluator &Eval) {
  // `for (auto &t : v) t = t.to(d);`: one element of `v` changes, so `v`
  // holds the join of what it held and what came in.
  const Expr *Aliased = Locals.aliasedBy(Reference);
  if (!Aliased)
    return;
  Location Whole = Eval.locationOf(Aliased);
  if (!Whole.Base || Whole.Base == Reference)
    Whole = containerOf(Aliased, Eval);
  if (Whole.Base && Whole.Base != Reference)
    set(Current, Whole, join(Current.tensor(Whole), Value));
}

bool Transfer::updateContainer(const CXXMemberCallExpr &Call, State &Current,
                               Evaluator &Eval) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  const Expr *Object = Call.getImplicitObjectArgument();
  if (!Method || Method->isConst() || !api::holdsTensors(Object->getType()))
    return false;
  Location Whole = Eval.locationOf(Object);
  if (!Whole.Base)
    return false;
  if (Method->getDeclName().isIdentifier() && Method->getName() == "clear") {
    set(Current, Whole, TensorValue::emptySequence());
    return true;
  }
  // `v.push_back(t)`, `m.insert({k, t})`, `m.emplace(k, t)`,
  // `dict.insert(k, t)`: the join of what it holds and what comes in.
  TensorValue Value = Current.tensor(Whole);
  bool Inserted = false;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    const Expr *Bare = utils::ignoreTemporaries(Arg);
    if (api::isTensorValued(Arg->getType()) ||
        isa<InitListExpr, CXXStdInitializerListExpr>(Bare)) {
      Value = join(Value, Eval.tensor(Arg));
      Inserted = true;
    }
  }
  if (Inserted) {
    set(Current, Whole, Value);
    writeThroughAlias(Whole.Base, Value, Current, Eval);
  }
  return true;
}

bool Transfer::markRequiresGrad(const CXXMemberCallExpr &Call, State &Current,
                                Evaluator &Eval) {
  // `w.requires_grad_()`: a tensor made by a factory becomes a leaf that
  // requires grad.
  if (!api::isRequiresGradSetter(Call.getMethodDecl()))
    return false;
  Location Place = Eval.locationOf(Call.getImplicitObjectArgument());
  auto It = Place.Base ? Current.Tensors.find(Place) : Current.Tensors.end();
  if (It == Current.Tensors.end() || It->second.From == Origin::Moved)
    return false;
  bool Enable = true;
  if (Call.getNumArgs() && !isa<CXXDefaultArgExpr>(Call.getArg(0)))
    Enable = Call.getArg(0)->EvaluateAsBooleanCondition(Enable, Ctx) && Enable;
  It->second.RequiresGradLeaf = Enable;
  return true;
}

void Transfer::moveModule(const CXXMemberCallExpr &Call, State &Current,
                          Evaluator &Eval) {
  const ValueDecl *Module = api::moduleReceiver(Call.getImplicitObjectArgument());
  if (!Module || Call.getNumArgs() == 0)
    return;
  DeviceValue Target = Eval.device(Call.getArg(0));
  Current.Modules[Module] = {Target.Device, Target, &Call};
  WrittenModules.insert(Module);
}

void Transfer::loadCheckpoint(const CallExpr &Call,
                              const api::CheckpointLoad &Load, State &Current,
                              Evaluator &Eval) {
  // Loaded to the CPU, the tensors are there; without a device, they go
  // back where they were saved from: unknown. A module loaded to the CPU
  // has its parameters there.
  DeviceValue Device = Load.Device ? Eval.device(Load.Device) : DeviceValue();
  if (api::heldModule(Load.Into->getType())) {
    const ValueDecl *Module = api::moduleReceiver(Load.Into);
    if (Module && Device.Device == Place::Cpu) {
      Current.Modules[Module] = {Place::Cpu, Device, &Call};
      WrittenModules.insert(Module);
    }
    return;
  }
  Location Into = Eval.locationOf(Load.Into);
  if (Into.Base && api::isTensorValued(Load.Into->getType()))
    set(Current, Into,
        Device.Device == Place::Cpu ? TensorValue::cpu() : TensorValue::unknown());
}

void Transfer::applyEffects(const CallExpr &Call, const FunctionFacts *Callee,
                            State &Current, Evaluator &Eval) {
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (!Fn || api::isLibTorchInternal(Fn) || Fn->isInStdNamespace())
    return;
  // `a(b)` through an operator method: the object is argument 0.
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Fn);
  for (unsigned I = 0; I < Fn->getNumParams() && I + Offset < Call.getNumArgs();
       ++I) {
    const ParmVarDecl *Param = Fn->getParamDecl(I);
    const Expr *Arg = Call.getArg(I + Offset);
    if (api::heldModule(Param->getType())) {
      // A holder passed by value shares its module: a move inside moves
      // the caller's.
      const ModuleValue *Moved =
          Callee ? Callee->Exit.module(Callee->Function->getParamDecl(I))
                 : nullptr;
      if (const ValueDecl *Module = api::moduleReceiver(Arg); Module && Moved)
        Current.Modules[Module] = *Moved;
      continue;
    }
    QualType Type = Param->getType();
    if (!Type->isReferenceType() || Type.getNonReferenceType().isConstQualified() ||
        !api::isTensorValued(Type))
      continue;
    Location Place = Eval.locationOf(Arg);
    if (!Place.Base)
      continue;
    if (!Callee) {
      set(Current, Place, TensorValue::unknown()); // changed out of sight
      if (!Place.Member)
        Current.forgetMembers(Place.Base); // `to_device(Batch &b, device)`
      continue;
    }
    applyParameterEffects(*Callee, Callee->Function->getParamDecl(I), Place,
                          Current);
  }
  // A method called on `this` leaves the fields as it wrote them.
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!Member || !isa<CXXThisExpr>(
                     Member->getImplicitObjectArgument()->IgnoreImplicit()))
    return;
  if (!Callee) {
    if (!Member->getMethodDecl()->isConst())
      for (auto It = Current.Tensors.begin(); It != Current.Tensors.end();)
        It = isa<FieldDecl>(It->first.Base) ? Current.Tensors.erase(It)
                                            : std::next(It);
    return;
  }
  for (const auto &[Place, Value] : Callee->Exit.Tensors)
    if (isa<FieldDecl>(Place.Base))
      set(Current, Place, Value);
  for (const Location &Place : Callee->Clobbered)
    if (isa<FieldDecl>(Place.Base))
      set(Current, Place, TensorValue::unknown());
  for (const auto &[Decl, Value] : Callee->Exit.Modules)
    if (isa<FieldDecl>(Decl))
      Current.Modules[Decl] = Value;
}

void Transfer::applyParameterEffects(const FunctionFacts &Callee,
                                     const ParmVarDecl *Param,
                                     const Location &Arg, State &Current) {
  // What the callee left in its parameter, or in a field of it (an
  // aggregate), is what the argument holds now.
  auto Effect = [&](const Location &Inside, const TensorValue &Value) {
    if (Inside.Base != Param)
      return;
    if (!Inside.Member)
      set(Current, Arg, Value);
    else if (!Arg.Member)
      set(Current, Location(Arg.Base, Inside.Member), Value);
    else
      set(Current, Arg, TensorValue::unknown());
  };
  for (const auto &[Inside, Value] : Callee.Exit.Tensors)
    Effect(Inside, Value);
  for (const Location &Inside : Callee.Clobbered)
    Effect(Inside, TensorValue::unknown());
}

void Transfer::recordValues(const CallExpr &Call, Evaluator &Eval) {
  // What the rules ask deviceOf(): the call, its object and its arguments.
  if (api::isTensorValued(Call.getType()))
    Eval.tensor(&Call);
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
      Member && api::isTensorValued(Member->getImplicitObjectArgument()->getType()))
    Eval.tensor(Member->getImplicitObjectArgument());
  for (const Expr *Arg : Call.arguments())
    if (api::isTensorValued(Arg->getType()))
      Eval.tensor(Arg);
}

void Transfer::recordForward(const CallExpr &Call, const ValueDecl &Module,
                             Evaluator &Eval) {
  const ModuleValue *Known = Eval.forwardedModuleValue(Call);
  if (!Known || Known->Device == Place::Unknown)
    return;
  // The input is the first tensor; later ones may belong on the CPU
  // (pack_padded_sequence's lengths).
  for (const Expr *Arg : Call.arguments()) {
    if (!api::isTensorType(Arg->getType()))
      continue;
    TensorValue Value = Eval.tensor(Arg);
    if (Known->Device == Place::Cpu) {
      // Built without a device and never moved (a move to the CPU is no
      // omission).
      if (!Known->MovedAt && Value.Device == Place::Accelerator &&
          !Value.ZeroDim)
        Recording->ForwardsOnCpu.push_back({&Call, &Module, {Arg, Value}});
      return;
    }
    if (Value.Device != Place::Cpu || Value.ZeroDim ||
        llvm::any_of(Recording->ForwardInputs,
                     [&](const ForwardInput &F) { return F.Call == &Call; }))
      return;
    Recording->ForwardInputs.push_back({&Call, &Module, {Arg, Value},
                                        onModuleDevice(*Known), Known->MovedAt});
    return;
  }
}

void Transfer::recordStateMeeting(const CallExpr &Call, Evaluator &Eval) {
  // `lstm->forward(x, state)`: the state meets the input and the weights.
  std::vector<Operand> Operands;
  const ModuleValue *Known = Eval.forwardedModuleValue(Call);
  bool Moved = Known && Known->Device == Place::Accelerator;
  const Expr *Holder = isa<CXXMemberCallExpr>(Call)
                           ? cast<CXXMemberCallExpr>(Call).getImplicitObjectArgument()
                           : Call.getArg(0);
  if (Moved)
    Operands.push_back({Holder, onModuleDevice(*Known)});
  bool First = true;
  for (const Expr *Arg : Call.arguments()) {
    if (Arg == Holder || isa<CXXDefaultArgExpr>(Arg) ||
        !api::isTensorValued(Arg->getType()))
      continue;
    // A CPU input of a moved module is device-unmoved-input's.
    if (!(First && Moved))
      Operands.push_back({Arg, Eval.tensor(Arg)});
    First = false;
  }
  recordMeeting(api::OpKind::SameDevice, Call, std::move(Operands));
}

void Transfer::recordOperation(const CallExpr &Call, Evaluator &Eval) {
  api::OpKind Kind = api::classifyFunction(Call.getDirectCallee());
  // `criterion(out, target)`: a loss module's call.
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  bool IsLossModule = Op && Op->getOperator() == OO_Call &&
                      api::isLossModule(api::heldModule(Op->getArg(0)->getType()));
  if (IsLossModule)
    Kind = api::OpKind::Loss;
  if (!api::checksDevices(Kind))
    return;
  std::vector<Operand> Operands = Eval.operands(Call);
  if (IsLossModule)
    Operands.erase(Operands.begin(),
                   Operands.end() - std::min<size_t>(Operands.size(), 2));
  recordMeeting(Kind, Call, std::move(Operands));
}

void Transfer::recordMeeting(api::OpKind Kind, const CallExpr &Call,
                             std::vector<Operand> Operands) {
  std::optional<unsigned> Cpu = Evaluator::conflictingOperand(Kind, Operands);
  if (!Cpu || llvm::any_of(Recording->Meetings,
                           [&](const Meeting &M) { return M.Sink == &Call; }))
    return;
  auto Accelerator = llvm::find_if(Operands, [](const Operand &O) {
    return O.Value.Device == Place::Accelerator;
  });
  unsigned AcceleratorPosition = Accelerator - Operands.begin();
  Recording->Meetings.push_back(
      {Kind, &Call, std::move(Operands), *Cpu, AcceleratorPosition});
}

} // namespace clang::tidy::torch_tidy::flow
