//===--- Evaluator.cpp - The device of an expression in a state -----------===//

#include "Evaluator.h"
#include "LocalVariables.h"
#include "TranslationUnitAnalysis.h"
#include "api/TensorMethods.h"
#include "utils/AstHelpers.h"

namespace clang::tidy::torch_tidy::flow {

static unsigned explicitArguments(const CallExpr &Call) {
  return llvm::count_if(Call.arguments(), [](const Expr *Arg) {
    return !isa<CXXDefaultArgExpr>(Arg);
  });
}

TensorValue Evaluator::tensor(const Expr *E) {
  TensorValue Value = evaluate(E);
  if (Recorded && !Value.isUnknown()) {
    (*Recorded)[E] = Value;
    (*Recorded)[utils::ignoreTemporaries(E)] = Value;
  }
  return Value;
}

Location Evaluator::locationOf(const Expr *E) const {
  E = utils::ignoreTemporaries(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl, BindingDecl>(Ref->getDecl()))
      return Location(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = utils::ignoreTemporaries(Member->getBase());
    if (isa<CXXThisExpr>(Base))
      return Location(Member->getMemberDecl());
    // A field of a local aggregate: `x.t`, `batch.data`.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base);
        Ref && !Member->isArrow() && isa<VarDecl, BindingDecl>(Ref->getDecl()) &&
        (api::holdsTensors(Ref->getType()) || api::isDataExample(Ref->getType())))
      return Location(Ref->getDecl(), Member->getMemberDecl());
  }
  return Location();
}

TensorValue Evaluator::evaluate(const Expr *E) {
  E = utils::ignoreTemporaries(E);
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return join(tensor(Cond->getTrueExpr()), tensor(Cond->getFalseExpr()));
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    // An aggregate: the join of what it was given as a whole and of the
    // fields assigned since.
    TensorValue Whole = Current.tensor(Location(Ref->getDecl()));
    if (!api::holdsTensors(Ref->getType()))
      return Whole;
    for (auto It = Current.Tensors.upper_bound(Location(Ref->getDecl()));
         It != Current.Tensors.end() && It->first.Base == Ref->getDecl(); ++It)
      Whole = join(Whole, It->second);
    return Whole;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return member(*Member);
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return tensor(Subscript->getBase());
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    // `std::vector<Tensor>{a, b}`, `std::pair<Tensor, Tensor>(a, b)`: the
    // join of the elements.
    if (!api::holdsTensors(Construct->getType()))
      return TensorValue::unknown();
    // Empty until something is put in: what comes first decides.
    if (Construct->getNumArgs() == 0)
      return TensorValue::emptySequence();
    TensorValue Joined = TensorValue::emptySequence();
    for (const Expr *Arg : Construct->arguments()) {
      if (api::isTensorValued(Arg->getType()))
        Joined = join(Joined, tensor(Arg));
      else if (isa<InitListExpr, CXXStdInitializerListExpr>(
                   utils::ignoreTemporaries(Arg)))
        Joined = join(Joined, list(Arg));
    }
    return Joined.EmptySequence ? TensorValue::unknown() : Joined;
  }
  if (isa<InitListExpr, CXXStdInitializerListExpr>(E))
    return list(E);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(*Call);
  return TensorValue::unknown();
}

TensorValue Evaluator::member(const MemberExpr &Member) {
  const Expr *Base = utils::ignoreTemporaries(Member.getBase());
  if (isa<CXXThisExpr>(Base))
    return Current.tensor(Location(Member.getMemberDecl()));
  if (api::isDataExample(Base->getType())) {
    // What the DataLoader yields; a local batch's field holds it from the
    // declaration until the program stores another value there.
    if (Location Field = locationOf(&Member);
        Field.Base && !isa<ParmVarDecl>(Field.Base)) {
      TensorValue Stored = Current.tensor(Field);
      if (Stored.From != Origin::DataBatch)
        return Stored;
    }
    TensorValue Batch = TensorValue::cpu();
    Batch.From = Origin::DataBatch;
    Batch.Source = &Member;
    return Batch;
  }
  // `it->second` through an iterator of a container of tensors.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Base);
      Arrow && Arrow->getOperator() == OO_Arrow &&
      api::holdsTensors(Arrow->getArg(0)->getType()))
    return tensor(Arrow->getArg(0));
  if (!api::holdsTensors(Base->getType()))
    return TensorValue::unknown();
  Location Field = locationOf(&Member);
  if (Field.Base) {
    auto It = Current.Tensors.find(Field);
    if (It != Current.Tensors.end())
      return It->second;
    // Other fields known one by one, this one not: it is not their join.
    auto Next = Current.Tensors.upper_bound(Location(Field.Base));
    if (Next != Current.Tensors.end() && Next->first.Base == Field.Base)
      return TensorValue::unknown();
  }
  // `pair.first`, `result.logits` of a returned struct: the join of the
  // elements.
  return tensor(Base);
}

TensorValue Evaluator::list(const Expr *E) {
  E = utils::ignoreTemporaries(E);
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
    E = utils::ignoreTemporaries(StdList->getSubExpr());
  const auto *List = dyn_cast<InitListExpr>(E);
  if (!List || List->getNumInits() == 0)
    return TensorValue::unknown();
  TensorValue Joined = TensorValue::emptySequence();
  for (const Expr *Init : List->inits()) {
    if (api::isTensorValued(Init->getType()))
      Joined = join(Joined, tensor(Init));
    else if (isa<InitListExpr, CXXStdInitializerListExpr>(
                 utils::ignoreTemporaries(Init)))
      Joined = join(Joined, list(Init));
  }
  return Joined.EmptySequence ? TensorValue::unknown() : Joined;
}

/// `std::move(x)`, `std::get<0>(t)`, `std::make_pair(a, b)`, `std::tie`: the
/// join of the tensor-valued arguments.
static bool isStandardPassThrough(const FunctionDecl &Callee) {
  if (!Callee.isInStdNamespace() || !Callee.getDeclName().isIdentifier())
    return false;
  llvm::StringRef Name = Callee.getName();
  return Name == "move" || Name == "forward" || Name == "get" ||
         Name == "make_pair" || Name == "make_tuple" || Name == "tie" ||
         Name == "forward_as_tuple";
}

TensorValue Evaluator::call(const CallExpr &Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    return methodCall(*Member);
  if (forwardedModule(Call))
    return forwardOutput(Call);
  // `outs[i]`, `targets["seg"]`, `*it`: the container's value.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
      Op && (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star) &&
      api::holdsTensors(Op->getArg(0)->getType()))
    return tensor(Op->getArg(0));
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !api::isTensorValued(Call.getType()))
    return TensorValue::unknown();
  if (isStandardPassThrough(*Callee)) {
    TensorValue Joined = TensorValue::emptySequence();
    for (const Expr *Arg : Call.arguments())
      if (api::isTensorValued(Arg->getType()))
        Joined = join(Joined, tensor(Arg));
    return Joined.EmptySequence ? TensorValue::unknown() : Joined;
  }
  if (api::isFromBlob(Callee))
    return factory(Call);
  switch (api::classifyFunction(Callee)) {
  case api::OpKind::Factory:
    return factory(Call);
  case api::OpKind::FactoryLike:
    return factoryLike(Call);
  case api::OpKind::Other:
    if (api::isLibTorchInternal(Callee))
      // torch::relu(x), torch::log_softmax(x, 1), `x[i]`: the input's device.
      return Call.getNumArgs() && api::isTensorValued(Call.getArg(0)->getType())
                 ? derived(tensor(Call.getArg(0)), api::mayDropToZeroDim(Call))
                 : TensorValue::unknown();
    return Calls ? Calls->returnedBy(Call, *this) : TensorValue::unknown();
  case api::OpKind::Loss:
    return derived(combine(api::OpKind::Loss, operands(Call)),
                   !api::asksNoReduction(Call));
  default:
    return combine(api::classifyFunction(Callee), operands(Call));
  }
}

TensorValue Evaluator::methodCall(const CXXMemberCallExpr &Call) {
  if (forwardedModule(Call))
    return forwardOutput(Call);
  const CXXMethodDecl *Method = Call.getMethodDecl();
  const Expr *Object = Call.getImplicitObjectArgument();
  if (!Method || !api::isTensorValued(Call.getType()))
    return TensorValue::unknown();
  // `v.at(i)`, `v.front()`, `dict.values()` of a container of tensors (a
  // method of the user's own struct, `batch.to(d)`, is analysed as a call).
  if (api::holdsTensors(Object->getType()) &&
      (Method->getParent()->isInStdNamespace() ||
       api::isLibTorchInternal(Method)))
    return tensor(Object);
  // `model->parameters()` of a module moved to an accelerator.
  if (api::isParameterAccessor(Method))
    if (const ValueDecl *Module = api::moduleReceiver(Object))
      return moduleOutput(Module);
  if (!api::isTensorType(Object->getType()))
    return Calls && !api::isLibTorchInternal(Method) ? Calls->returnedBy(Call, *this)
                                                     : TensorValue::unknown();
  if (api::tensorMoveOf(Method) != api::TensorMove::None)
    return move(Call);
  if (api::isRequiresGradSetter(Method)) {
    // `x.clone().requires_grad_(true)`: a leaf that requires grad.
    TensorValue Leaf = derived(tensor(Object), false);
    bool Enable = true;
    if (Call.getNumArgs() && !isa<CXXDefaultArgExpr>(Call.getArg(0)))
      Enable = Call.getArg(0)->EvaluateAsBooleanCondition(Enable, Ctx) && Enable;
    Leaf.RequiresGradLeaf = Enable;
    return Leaf;
  }
  if (api::classifyFunction(Method) == api::OpKind::Other)
    // Views, reductions, activations: the object's device.
    return derived(tensor(Object), api::isFullReduction(Call) ||
                                       api::mayDropToZeroDim(Call));
  return combine(api::classifyFunction(Method), operands(Call));
}

std::optional<unsigned>
Evaluator::conflictingOperand(api::OpKind Kind, llvm::ArrayRef<Operand> Operands) {
  if (!api::checksDevices(Kind))
    return std::nullopt;
  if (llvm::none_of(Operands, [](const Operand &O) {
        return O.Value.Device == Place::Accelerator;
      }))
    return std::nullopt;
  for (unsigned I = 0; I < Operands.size(); ++I) {
    const TensorValue &Value = Operands[I].Value;
    if (Value.Device != Place::Cpu)
      continue;
    // A 0-dim CPU tensor is accepted beside accelerator operands as an
    // input of TensorIterator ops and losses, not as their output.
    bool IsOutput = Kind == api::OpKind::ElementWiseInPlace && I == 0;
    if (!Value.ZeroDim || IsOutput || Kind == api::OpKind::SameDevice)
      return I;
  }
  return std::nullopt;
}

TensorValue Evaluator::combine(api::OpKind Kind,
                               const std::vector<Operand> &Operands) {
  // The result is where the accelerator operand is, if any. Where the
  // operands conflict the op throws, and the result is where the fix puts
  // it: on the accelerator when the CPU operand was made without a device
  // or by the DataLoader (the fix moves it), unknown when it was moved to
  // the CPU on purpose (the fix may move either side).
  if (Operands.empty())
    return TensorValue::unknown();
  if (std::optional<unsigned> Cpu = conflictingOperand(Kind, Operands);
      Cpu && Operands[*Cpu].Value.From != Origin::FactoryWithoutDevice &&
      Operands[*Cpu].Value.From != Origin::DataBatch)
    return TensorValue::unknown();
  bool AllCpu = true;
  for (const Operand &O : Operands) {
    if (O.Value.Device == Place::Accelerator)
      return derived(O.Value, false);
    AllCpu &= O.Value.Device == Place::Cpu;
  }
  if (!AllCpu)
    return TensorValue::unknown();
  TensorValue Result = derived(Operands.front().Value, false);
  Result.ZeroDim = llvm::all_of(
      Operands, [](const Operand &O) { return O.Value.ZeroDim; });
  return Result;
}

TensorValue Evaluator::move(const CXXMemberCallExpr &Call) {
  TensorValue Object = tensor(Call.getImplicitObjectArgument());
  TensorValue Result;
  Result.ZeroDim = Object.ZeroDim;
  Result.From = Origin::Moved;
  Result.Source = &Call;
  std::optional<DeviceValue> Target;
  switch (api::tensorMoveOf(Call.getMethodDecl())) {
  case api::TensorMove::Cuda:
    // Named "an accelerator" in messages: `.cuda()` has no device to name.
    Target = DeviceValue{Place::Accelerator, nullptr, false};
    break;
  case api::TensorMove::Cpu:
    Target = DeviceValue{Place::Cpu, &Call, false};
    break;
  default:
    Target = moveTarget(Call, Object);
  }
  // A dtype change alone: the tensor stays where it was, for the same
  // reason.
  if (!Target)
    return derived(Object, false);
  if (Target->Device == Place::Unknown)
    return TensorValue::unknown();
  Result.Device = Target->Device;
  Result.DeviceExpr = Target->Where;
  Result.MaybeAccelerator = Target->Maybe;
  return Result;
}

std::optional<DeviceValue>
Evaluator::moveTarget(const CXXMemberCallExpr &Call, const TensorValue &Object) {
  // A device, options or another tensor; a dtype alone keeps the object's
  // device.
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    QualType Type = Arg->getType();
    if (api::namesADevice(Type))
      return device(Arg);
    if (api::isTensorType(Type)) {
      TensorValue Other = tensor(Arg);
      return DeviceValue{Other.Device, Other.DeviceExpr, Other.MaybeAccelerator};
    }
    if (api::isTensorOptionsType(Type)) {
      OptionsValue Options = options(Arg);
      if (Options.Opaque)
        return DeviceValue();
      if (Options.HasDevice)
        return Options.Device;
      if (Options.Like)
        return DeviceValue{Options.Like->Device, Options.Like->DeviceExpr,
                           Options.Like->MaybeAccelerator};
    }
  }
  return std::nullopt;
}

TensorValue Evaluator::factory(const CallExpr &Call) {
  TensorValue Result;
  Result.ZeroDim = api::isZeroDimFactoryCall(Call);
  OptionsValue Options = factoryOptions(Call);
  Result.RequiresGradLeaf = Options.RequiresGrad;
  Result.Source = &Call;
  if (Options.Opaque)
    return Result;
  if (Options.Like) {
    Result.Device = Options.Like->Device;
    Result.DeviceExpr = Options.Like->DeviceExpr;
    Result.MaybeAccelerator = Options.Like->MaybeAccelerator;
    return Result;
  }
  if (Options.HasDevice) {
    Result.Device = Options.Device.Device;
    Result.DeviceExpr = Options.Device.Where;
    Result.MaybeAccelerator = Options.Device.Maybe;
    return Result;
  }
  // LibTorch has no global default device: no device means the CPU.
  Result.Device = Place::Cpu;
  Result.From = Origin::FactoryWithoutDevice;
  return Result;
}

TensorValue Evaluator::factoryLike(const CallExpr &Call) {
  OptionsValue Options = factoryOptions(Call);
  if (Options.Opaque)
    return TensorValue::unknown();
  if (Options.HasDevice) {
    TensorValue Result;
    Result.Device = Options.Device.Device;
    Result.DeviceExpr = Options.Device.Where;
    Result.MaybeAccelerator = Options.Device.Maybe;
    Result.Source = &Call;
    return Result;
  }
  return Call.getNumArgs() ? derived(tensor(Call.getArg(0)), false)
                           : TensorValue::unknown();
}

OptionsValue Evaluator::factoryOptions(const CallExpr &Call) {
  OptionsValue Result;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (api::isTensorOptionsType(Arg->getType()))
      return options(Arg);
    if (api::namesADevice(Arg->getType())) {
      Result.HasDevice = true;
      Result.Device = device(Arg);
    }
  }
  return Result;
}

static OptionsValue opaque() {
  OptionsValue Result;
  Result.Opaque = true;
  return Result;
}

OptionsValue Evaluator::options(const Expr *E) {
  E = utils::ignoreTemporaries(E);
  OptionsValue Result;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return Result;
    const Expr *Arg = Construct->getArg(0);
    if (api::namesADevice(Arg->getType())) {
      Result.HasDevice = true;
      Result.Device = device(Arg);
      return Result;
    }
    if (api::isTensorOptionsType(Arg->getType()))
      return options(Arg);
    // A dtype, layout or memory format: no device.
    return Result;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (api::isOptionsAccessor(Member->getMethodDecl())) {
      Result.Like = tensor(Object);
      return Result;
    }
    if (!api::isTensorOptionsType(Object->getType()))
      return opaque();
    Result = options(Object);
    applyOption(*Member, Result);
    return Result;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !api::isLibTorchInternal(Callee))
      return opaque();
    applyOption(*Call, Result);
    return Result;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Locals.isFixed(Var))
      return options(Var->getInit());
  return opaque();
}

void Evaluator::applyOption(const CallExpr &Call, OptionsValue &Result) {
  switch (api::optionsSetterOf(Call.getDirectCallee())) {
  case api::OptionsSetter::Device:
    if (Call.getNumArgs() > 0) {
      Result.HasDevice = true;
      Result.Device = device(Call.getArg(0));
    }
    break;
  case api::OptionsSetter::RequiresGrad: {
    const Expr *Arg = Call.getNumArgs() ? Call.getArg(0) : nullptr;
    bool Value = true;
    if (Arg && !isa<CXXDefaultArgExpr>(Arg)) {
      const Expr *Bare = utils::ignoreTemporaries(Arg);
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
          Construct && Construct->getNumArgs() == 1)
        Bare = utils::ignoreTemporaries(Construct->getArg(0));
      Value = Bare->EvaluateAsBooleanCondition(Value, Ctx) && Value;
    }
    Result.RequiresGrad = Value;
    break;
  }
  case api::OptionsSetter::Other:
    break;
  }
}

/// Names the device by the expression the user wrote at the use.
static DeviceValue withWhere(DeviceValue Value, const Expr *Where) {
  if (Value.Device != Place::Unknown)
    Value.Where = Where;
  return Value;
}

DeviceValue Evaluator::device(const Expr *E) {
  E = utils::ignoreTemporaries(E);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return {};
    DeviceValue Inner = device(Construct->getArg(0));
    // `torch::Device(torch::kCUDA, 1)` as written names the device; an
    // implicit conversion (a DeviceType variable passed as a Device) keeps
    // the name the user wrote.
    return isa<CXXTemporaryObjectExpr>(Construct) ? withWhere(Inner, E) : Inner;
  }
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    DeviceValue True = device(Cond->getTrueExpr());
    DeviceValue False = device(Cond->getFalseExpr());
    if (True.Device == Place::Cpu && False.Device == Place::Cpu)
      return {Place::Cpu, E, false};
    if (True.Device == Place::Accelerator || False.Device == Place::Accelerator)
      return {Place::Accelerator, E,
              True.Device != Place::Accelerator ||
                  False.Device != Place::Accelerator || True.Maybe ||
                  False.Maybe};
    return {};
  }
  if (const auto *Literal = dyn_cast<StringLiteral>(E)) {
    if (auto Accelerator = api::isAcceleratorString(Literal->getString()))
      return {*Accelerator ? Place::Accelerator : Place::Cpu, E, false};
    return {};
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    if (auto Accelerator = api::isAcceleratorConstant(D))
      return {*Accelerator ? Place::Accelerator : Place::Cpu, E, false};
    if (const auto *Var = dyn_cast<VarDecl>(D); Var && Locals.isFixed(Var))
      return withWhere(device(Var->getInit()), E);
    // A parameter, a member, a global or a variable set on several paths:
    // it may be an accelerator unless it provably is not.
    return {Place::Accelerator, E, true};
  }
  if (isa<MemberExpr>(E))
    return {Place::Accelerator, E, true};
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    if (api::isDeviceAccessor(Call->getMethodDecl())) {
      TensorValue Tensor = tensor(Call->getImplicitObjectArgument());
      if (Tensor.Device == Place::Cpu)
        return {Place::Cpu, E, false};
      return {Place::Accelerator, E, true};
    }
  }
  if (isa<CallExpr>(E) && api::namesADevice(E->getType()))
    return {Place::Accelerator, E, true};
  return {};
}

/// The object a forward call runs on: `model` in `model->forward(x)`,
/// `model(x)`; null when \p Call is no forward.
static const Expr *forwardReceiver(const CallExpr &Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    return api::isForwardMethod(Member->getMethodDecl())
               ? Member->getImplicitObjectArgument()
               : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    if (Op->getOperator() == OO_Call && api::heldModule(Op->getArg(0)->getType()))
      return Op->getArg(0);
  return nullptr;
}

const ValueDecl *Evaluator::forwardedModule(const CallExpr &Call) {
  const Expr *Receiver = forwardReceiver(Call);
  if (!Receiver)
    return nullptr;
  if (const ValueDecl *Module = api::moduleReceiver(Receiver))
    return Module;
  auto Access = api::submoduleAccess(Receiver);
  return Access ? Access->Field : nullptr;
}

const ModuleValue *Evaluator::forwardedModuleValue(const CallExpr &Call) const {
  const Expr *Receiver = forwardReceiver(Call);
  if (!Receiver)
    return nullptr;
  if (const ValueDecl *Module = api::moduleReceiver(Receiver))
    return Current.module(Module);
  auto Access = api::submoduleAccess(Receiver);
  if (!Access)
    return nullptr;
  // Module::to moves what the owner registers, with it.
  const ModuleValue *Owner = Current.module(Access->Owner);
  const CXXRecordDecl *OwnerClass = api::heldModule(Access->Owner->getType());
  if (!Owner || !OwnerClass ||
      !TranslationUnitAnalysis::of(Ctx).registrations(*OwnerClass).Fields.contains(
          Access->Field))
    return nullptr;
  return Owner;
}

TensorValue Evaluator::forwardOutput(const CallExpr &Call) {
  // On the module's device once it was moved; for a module built here and
  // never moved, on the CPU; otherwise where its input is, if that is an
  // accelerator (a forward that runs at all computes there).
  const ModuleValue *Known = forwardedModuleValue(Call);
  if (Known && Known->Device == Place::Accelerator)
    return onModuleDevice(*Known);
  TensorValue Input;
  for (const Expr *Arg : Call.arguments())
    if (api::isTensorType(Arg->getType())) {
      Input = tensor(Arg);
      break;
    }
  if (Input.Device == Place::Accelerator)
    return derived(Input, false);
  if (Known && Known->Device == Place::Cpu && Input.Device == Place::Cpu)
    return TensorValue::cpu();
  return TensorValue::unknown();
}

TensorValue Evaluator::moduleOutput(const ValueDecl *Module) const {
  const ModuleValue *Known = Current.module(Module);
  return Known ? onModuleDevice(*Known) : TensorValue::unknown();
}

std::vector<Operand> Evaluator::operands(const CallExpr &Call) {
  std::vector<Operand> Result;
  auto Add = [&](const Expr *E) {
    // cat/stack take a TensorList built from `{a, b}`: each element is an
    // operand of its own.
    const Expr *Bare = utils::ignoreTemporaries(E);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
        Construct && Construct->getNumArgs() >= 1)
      Bare = utils::ignoreTemporaries(Construct->getArg(0));
    if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(Bare))
      Bare = utils::ignoreTemporaries(StdList->getSubExpr());
    if (const auto *List = dyn_cast<InitListExpr>(Bare)) {
      for (const Expr *Init : List->inits())
        if (api::isTensorType(Init->getType()))
          Result.push_back({Init, tensor(Init)});
      return;
    }
    if (api::isTensorValued(E->getType()))
      Result.push_back({E, tensor(E)});
  };
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    Add(Member->getImplicitObjectArgument());
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      Add(Arg);
  return Result;
}

} // namespace clang::tidy::torch_tidy::flow
