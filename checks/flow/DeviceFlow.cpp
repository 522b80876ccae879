//===--- DeviceFlow.cpp - Which device each tensor of a function is on ----===//

#include "DeviceFlow.h"
#include "api/ModuleRegistrations.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>

namespace clang::tidy::torch_tidy::flow {

bool TensorValue::operator==(const TensorValue &Other) const {
  return Device == Other.Device && ZeroDim == Other.ZeroDim &&
         RequiresGradLeaf == Other.RequiresGradLeaf && From == Other.From &&
         Source == Other.Source && DeviceExpr == Other.DeviceExpr &&
         MaybeAccelerator == Other.MaybeAccelerator &&
         EmptySequence == Other.EmptySequence;
}

/// Where two paths disagree the value is unknown: precision first.
static TensorValue join(const TensorValue &A, const TensorValue &B) {
  if (A == B || B.EmptySequence)
    return A;
  if (A.EmptySequence)
    return B;
  if (A.Device == Place::Accelerator && B.Device == Place::Accelerator) {
    TensorValue Joined = A;
    Joined.MaybeAccelerator |= B.MaybeAccelerator;
    Joined.ZeroDim = A.ZeroDim && B.ZeroDim;
    Joined.RequiresGradLeaf = false;
    return Joined;
  }
  if (A.Device == Place::Cpu && B.Device == Place::Cpu) {
    TensorValue Joined;
    Joined.Device = Place::Cpu;
    Joined.ZeroDim = A.ZeroDim && B.ZeroDim;
    return Joined;
  }
  return TensorValue();
}

namespace {

/// A device expression's meaning.
struct DeviceValue {
  Place Device = Place::Unknown;
  const Expr *Where = nullptr;
  bool Maybe = false;
};

/// What a TensorOptions expression says about the device.
struct OptionsValue {
  bool Opaque = false; // built somewhere we cannot see
  bool HasDevice = false;
  DeviceValue Device;
  bool RequiresGrad = false;
  /// `x.options()`: the device of another tensor.
  std::optional<TensorValue> Like;
};

struct ModuleValue {
  Place Device = Place::Unknown;
  const Expr *MovedAt = nullptr;
  DeviceValue Target;
  bool operator==(const ModuleValue &O) const {
    return Device == O.Device && MovedAt == O.MovedAt &&
           Target.Where == O.Target.Where;
  }
};

struct State {
  std::map<const ValueDecl *, TensorValue> Tensors;
  std::map<const ValueDecl *, ModuleValue> Modules;
  bool operator==(const State &O) const {
    return Tensors == O.Tensors && Modules == O.Modules;
  }
};

/// The facts of \p Fn entered with \p Entry (its parameters, and the fields
/// of `this` for a method of a moved module), once per abstract context and
/// translation unit.
const FunctionFacts &analyzeInContext(const FunctionDecl &Fn, ASTContext &Ctx,
                                      State Entry, CallContext Context);

/// What \p Record registers, once per translation unit.
const api::Registrations &registrationsOf(const CXXRecordDecl &Record,
                                          ASTContext &Ctx);

State joinStates(const State &A, const State &B) {
  State Out;
  for (const auto &[Decl, Value] : A.Tensors) {
    auto It = B.Tensors.find(Decl);
    Out.Tensors[Decl] = It == B.Tensors.end() ? TensorValue()
                                              : join(Value, It->second);
  }
  for (const auto &[Decl, Value] : A.Modules) {
    auto It = B.Modules.find(Decl);
    if (It != B.Modules.end() && It->second == Value)
      Out.Modules[Decl] = Value;
  }
  return Out;
}


const ValueDecl *tensorVariable(const Expr *E) {
  return utils::namedObject(*utils::ignoreTemporaries(E));
}


class FunctionAnalysis;

/// Per translation unit: the facts of every analysed function.
struct TranslationUnitCache {
  const ASTContext *Context = nullptr;
  std::map<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Facts;
  /// Facts in a call's context, by callee and the abstract values of its
  /// arguments (provenance aside: the first call site names them).
  std::map<std::pair<const FunctionDecl *, std::string>,
           std::unique_ptr<FunctionFacts>>
      InContext;
  std::vector<const FunctionFacts *> ContextOrder;
  std::map<const CXXRecordDecl *, api::Registrations> Registered;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  std::optional<bool> NamesAccelerator;
};

thread_local TranslationUnitCache Cache;

TranslationUnitCache &cacheFor(const ASTContext &Ctx) {
  // Each clang-tidy worker thread analyses one translation unit at a time.
  // The address alone cannot tell translation units apart (the next one's
  // ASTContext may reuse a freed one's): resetTranslationUnit() clears it.
  if (Cache.Context != &Ctx) {
    Cache.Facts.clear();
    Cache.InContext.clear();
    Cache.ContextOrder.clear();
    Cache.Registered.clear();
    Cache.InProgress.clear();
    Cache.NamesAccelerator.reset();
    Cache.Context = &Ctx;
  }
  return Cache;
}

class FunctionAnalysis {
public:
  /// \p EntryState: what a call's context says at entry (nothing for the
  /// analysis of the function on its own).
  FunctionAnalysis(const FunctionDecl &Fn, ASTContext &Ctx,
                   State EntryState = {},
                   std::optional<CallContext> Context = std::nullopt)
      : Fn(Fn), Ctx(Ctx), EntryState(std::move(EntryState)) {
    Facts.Context = std::move(Context);
  }

  FunctionFacts run() {
    const Stmt *Body = Fn.getBody();
    // Where the compiler recovered from errors, a move or an assignment may
    // be what was lost: no facts, no findings.
    if (!Body || utils::containsErrors(*Body))
      return {};
    CFG::BuildOptions Options;
    std::unique_ptr<CFG> Graph = CFG::buildCFG(&Fn, const_cast<Stmt *>(Body),
                                               &Ctx, Options);
    if (!Graph)
      return {};
    collectLoopVariables(*Body);
    countAssignments(*Body);
    solve(*Graph);
    Reporting = true;
    PostOrderCFGView Order(Graph.get());
    for (const CFGBlock *Block : Order) {
      auto It = Entry.find(Block);
      if (It == Entry.end())
        continue;
      Current = It->second;
      transferBlock(*Block);
    }
    return std::move(Facts);
  }

private:
  // ---- Fixpoint over the CFG ----------------------------------------------

  void solve(const CFG &Graph) {
    Entry[&Graph.getEntry()] = EntryState;
    // clang's own traversal: it skips the null successors that the CFG hands
    // out for pruned edges (`if (false)`, code after `while (true)`).
    PostOrderCFGView Order(&Graph);
    // Values only fall to unknown at joins, so a few rounds reach the
    // fixpoint; the bound keeps the cost linear in the function's size.
    for (int Round = 0; Round < 4; ++Round) {
      // The first round sees each loop's first iteration before the joins
      // at its head lose precision: what conflicts there, conflicts on a
      // real run. Later rounds only compute the fixpoint.
      Reporting = Round == 0;
      bool Changed = false;
      for (const CFGBlock *Block : Order) {
        auto It = Entry.find(Block);
        if (It == Entry.end())
          continue;
        Current = It->second;
        transferBlock(*Block);
        for (const CFGBlock *Succ : Block->succs()) {
          if (!Succ)
            continue;
          auto [SuccIt, Inserted] = Entry.try_emplace(Succ, Current);
          if (!Inserted) {
            State Joined = joinStates(SuccIt->second, Current);
            if (!(Joined == SuccIt->second)) {
              SuccIt->second = std::move(Joined);
              Changed = true;
            }
          } else {
            Changed = true;
          }
        }
      }
      if (!Changed)
        break;
    }
  }

  void transferBlock(const CFGBlock &Block) {
    for (const CFGElement &Element : Block)
      if (auto S = Element.getAs<CFGStmt>())
        transfer(*S->getStmt());
  }

  // ---- Effects of one statement -------------------------------------------

  void transfer(const Stmt &S) {
    if (const auto *Return = dyn_cast<ReturnStmt>(&S)) {
      if (Reporting && Return->getRetValue())
        noteReturned(eval(Return->getRetValue()));
      return;
    }
    if (const auto *Decls = dyn_cast<DeclStmt>(&S)) {
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          declare(*Var);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(&S);
    if (!Call)
      return;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      if (const ValueDecl *Target = tensorVariable(Op->getArg(0)))
        if (api::isTensorType(Target->getType()))
          Current.Tensors[Target] = eval(Op->getArg(1));
      return;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      if (api::isModuleTo(*Member)) {
        moveModule(*Member);
        return;
      }
      if (updateSequence(*Member) || markRequiresGrad(*Member))
        return;
    }
    if (Reporting) {
      // A helper that returns nothing (or no tensor) is analysed in the
      // context of this call too: what it does with the arguments counts.
      if (!api::isTensorType(Call->getType()))
        callee(*Call);
      if (const ValueDecl *Module = forwardedModule(*Call))
        enterForward(*Call, *Module);
      checkOperation(*Call);
      checkLeafMove(*Call);
      notePointerTake(*Call);
      noteBlobWrap(*Call);
    }
  }

  void notePointerTake(const CallExpr &Call) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
    if (!Method || !api::isRawAccess(Method))
      return;
    const Expr *Object = Member->getImplicitObjectArgument();
    PointerTake Take{Member, eval(Object)};
    if (const auto *Copy = dyn_cast<CXXMemberCallExpr>(utils::ignoreTemporaries(Object));
        Copy && Copy->getMethodDecl() &&
        api::isTensorType(Copy->getImplicitObjectArgument()->getType()) &&
        (Copy->getMethodDecl()->getName() == "cpu" ||
         Copy->getMethodDecl()->getName() == "to")) {
      Take.Temporary = Copy;
      Take.Copied = eval(Copy->getImplicitObjectArgument());
    }
    Facts.PointerTakes.push_back(Take);
  }

  void noteBlobWrap(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || Callee->getName() != "from_blob" ||
        !api::isLibTorchInternal(Callee))
      return;
    OptionsValue Options = factoryOptions(Call);
    TensorValue Where;
    if (Options.HasDevice) {
      Where.Device = Options.Device.Device;
      Where.DeviceExpr = Options.Device.Where;
      Where.MaybeAccelerator = Options.Device.Maybe;
    } else if (!Options.Opaque && !Options.Like) {
      Where.Device = Place::Cpu; // no device: LibTorch assumes CPU memory
    }
    Facts.BlobWraps.push_back({&Call, Where});
  }

  void noteReturned(const TensorValue &Value) {
    Facts.Returned = SeenReturn ? join(Facts.Returned, Value) : Value;
    SeenReturn = true;
  }

  void declare(const VarDecl &Var) {
    const Expr *Init = Var.getInit();
    QualType Type = Var.getType();
    if (api::heldModule(Type)) {
      ModuleValue Module;
      // Built here (`Net net(...)`, `std::make_shared<Net>()`) without a
      // device argument: its parameters start on the CPU.
      if (Init && !Type->isReferenceType() && builtWithoutDevice(*Init))
        Module.Device = Place::Cpu;
      Current.Modules[&Var] = Module;
      return;
    }
    if (!api::isTensorType(Type) && !api::isTensorSequenceType(Type))
      return;
    auto Loop = LoopRanges.find(&Var);
    if (Loop != LoopRanges.end()) {
      Current.Tensors[&Var] = eval(Loop->second);
      return;
    }
    Current.Tensors[&Var] = Init ? eval(Init) : TensorValue();
    // `std::vector<torch::Tensor> outs;`: its first push_back decides.
    const auto *Construct =
        Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    if (api::isTensorSequenceType(Type) &&
        (!Init || (Construct && Construct->getNumArgs() == 0)))
      Current.Tensors[&Var].EmptySequence = true;
  }

  static bool builtWithoutDevice(const Expr &Init) {
    const Expr *Built = Init.IgnoreImplicit();
    llvm::ArrayRef<const Expr *> Args;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Built))
      Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
    else if (const auto *Call = dyn_cast<CallExpr>(Built))
      Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
    else
      return false;
    if (isa<CXXConstructExpr>(Built) && Args.size() == 1 &&
        api::heldModule(Args[0]->getType()))
      return false; // a copy of a module from elsewhere
    return llvm::none_of(Args, [](const Expr *Arg) {
      return api::namesADevice(Arg->getType()) ||
             api::isTensorOptionsType(Arg->getType());
    });
  }

  void moveModule(const CXXMemberCallExpr &Call) {
    const ValueDecl *Module = api::moduleReceiver(Call.getImplicitObjectArgument());
    if (!Module || Call.getNumArgs() == 0)
      return;
    DeviceValue Target = evalDevice(Call.getArg(0));
    Current.Modules[Module] = {Target.Device, &Call, Target};
  }

  /// `w.requires_grad_()`, `w.set_requires_grad(true)`: a tensor made by a
  /// factory becomes a leaf that requires grad.
  bool markRequiresGrad(const CXXMemberCallExpr &Call) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    if (!Method || !Method->getDeclName().isIdentifier() ||
        (Method->getName() != "requires_grad_" &&
         Method->getName() != "set_requires_grad"))
      return false;
    const ValueDecl *Target = tensorVariable(Call.getImplicitObjectArgument());
    auto It = Target ? Current.Tensors.find(Target) : Current.Tensors.end();
    if (It == Current.Tensors.end() || It->second.From == Origin::Moved)
      return false;
    bool Enable = true;
    if (Call.getNumArgs() && !isa<CXXDefaultArgExpr>(Call.getArg(0)))
      Enable = Call.getArg(0)->EvaluateAsBooleanCondition(Enable, Ctx) && Enable;
    It->second.RequiresGradLeaf = Enable;
    return true;
  }

  /// `v.push_back(t)`: a sequence's value is the join of its elements'.
  bool updateSequence(const CXXMemberCallExpr &Call) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    if (!Method || Call.getNumArgs() != 1 ||
        (Method->getName() != "push_back" &&
         Method->getName() != "emplace_back"))
      return false;
    const ValueDecl *Sequence = tensorVariable(Call.getImplicitObjectArgument());
    if (!Sequence || !api::isTensorSequenceType(Sequence->getType()))
      return false;
    TensorValue Element = eval(Call.getArg(0));
    auto [It, Inserted] = Current.Tensors.try_emplace(Sequence, Element);
    if (!Inserted)
      It->second = join(It->second, Element);
    return true;
  }

  // ---- Values of expressions ----------------------------------------------

  TensorValue eval(const Expr *E) {
    TensorValue Value = evalUncounted(E);
    if (Reporting && Value.Device == Place::Accelerator)
      Facts.UsesAccelerator = true;
    return Value;
  }

  TensorValue evalUncounted(const Expr *E) {
    E = utils::ignoreTemporaries(E);
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
      return join(eval(Cond->getTrueExpr()), eval(Cond->getFalseExpr()));
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return lookup(Ref->getDecl());
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return evalMember(*Member);
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      return eval(Subscript->getBase());
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      // std::vector<Tensor>{a, b}: the join of its elements.
      if (api::isTensorSequenceType(Construct->getType()) &&
          Construct->getNumArgs() == 1)
        return evalList(Construct->getArg(0));
      return TensorValue();
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return evalCall(*Call);
    return TensorValue();
  }

  TensorValue lookup(const ValueDecl *D) {
    auto It = Current.Tensors.find(D);
    return It == Current.Tensors.end() ? TensorValue() : It->second;
  }

  TensorValue evalMember(const MemberExpr &Member) {
    const Expr *Base = utils::ignoreTemporaries(Member.getBase());
    if (isa<CXXThisExpr>(Base))
      return lookup(Member.getMemberDecl());
    if (api::isDataExample(Base->getType())) {
      TensorValue Batch;
      Batch.Device = Place::Cpu;
      Batch.From = Origin::DataBatch;
      Batch.Source = &Member;
      return Batch;
    }
    return TensorValue();
  }

  TensorValue evalList(const Expr *E) {
    E = utils::ignoreTemporaries(E);
    if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
      E = utils::ignoreTemporaries(StdList->getSubExpr());
    const auto *List = dyn_cast<InitListExpr>(E);
    if (!List || List->getNumInits() == 0)
      return TensorValue();
    TensorValue Joined = eval(List->getInit(0));
    for (unsigned I = 1; I < List->getNumInits(); ++I)
      Joined = join(Joined, eval(List->getInit(I)));
    return Joined;
  }

  TensorValue evalCall(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
      if (const ValueDecl *Module = forwardedModule(Call))
        return forwardOutput(Call, Module);
      const Expr *Object = Member->getImplicitObjectArgument();
      if (!Callee || !api::isTensorType(Object->getType()) ||
          !api::isTensorType(Call.getType()))
        return sequenceElement(*Member);
      llvm::StringRef Name = Callee->getName();
      if (Name == "to" || Name == "cuda" || Name == "cpu")
        return evalMove(*Member);
      api::OpKind Kind = api::classifyFunction(Callee);
      if (Kind == api::OpKind::Other)
        // Views, reductions, activations: the object's device; `x.sum()`
        // over every dimension is 0-dim.
        return derived(eval(Object), (Name == "sum" || Name == "mean") &&
                                         explicitArguments(Call) == 0);
      return combine(operands(Call));
    }
    if (const ValueDecl *Module = forwardedModule(Call))
      return forwardOutput(Call, Module);
    // `outs[i]` of a sequence of tensors: the sequence's value.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
        Op && Op->getOperator() == OO_Subscript &&
        api::isTensorSequenceType(Op->getArg(0)->getType()))
      return eval(Op->getArg(0));
    if (!Callee || !api::isTensorType(Call.getType()))
      return TensorValue();
    switch (api::classifyFunction(Callee)) {
    case api::OpKind::Factory:
      return evalFactory(Call);
    case api::OpKind::FactoryLike:
      return evalFactoryLike(Call);
    case api::OpKind::Other:
      if (api::isLibTorchInternal(Callee))
        // torch::relu(x), torch::log_softmax(x, 1): the input's device.
        return Call.getNumArgs() && api::isTensorType(Call.getArg(0)->getType())
                   ? derived(eval(Call.getArg(0)), false)
                   : TensorValue();
      if (const FunctionFacts *Summary = callee(Call))
        return Summary->Returned;
      return TensorValue();
    case api::OpKind::Loss: {
      return derived(combine(operands(Call)), !api::asksNoReduction(Call));
    }
    default:
      return combine(operands(Call));
    }
  }

  /// `v[i]`, `v.at(i)`, `v.front()` of a tensor sequence.
  TensorValue sequenceElement(const CXXMemberCallExpr &Call) {
    const Expr *Object = Call.getImplicitObjectArgument();
    if (api::isTensorSequenceType(Object->getType()) &&
        api::isTensorType(Call.getType()))
      return eval(Object);
    return TensorValue();
  }

  static TensorValue derived(TensorValue From, bool ZeroDim) {
    TensorValue Result;
    Result.Device = From.Device;
    Result.DeviceExpr = From.DeviceExpr;
    Result.MaybeAccelerator = From.MaybeAccelerator;
    Result.ZeroDim = ZeroDim || From.ZeroDim;
    if (From.Device != Place::Unknown) {
      Result.From = From.From;
      Result.Source = From.Source;
    }
    return Result;
  }

  /// The result of an operation on several tensors: where the accelerator
  /// operand is, if any (a conflict was reported already otherwise).
  static TensorValue combine(const std::vector<std::pair<const Expr *, TensorValue>> &Operands) {
    if (Operands.empty())
      return TensorValue();
    bool AllCpu = true;
    for (const auto &[E, Value] : Operands) {
      if (Value.Device == Place::Accelerator)
        return derived(Value, false);
      AllCpu &= Value.Device == Place::Cpu;
    }
    if (!AllCpu)
      return TensorValue();
    TensorValue Result = derived(Operands.front().second, false);
    bool AllZeroDim = true;
    for (const auto &Operand : Operands)
      AllZeroDim &= Operand.second.ZeroDim;
    Result.ZeroDim = AllZeroDim;
    return Result;
  }

  TensorValue evalMove(const CXXMemberCallExpr &Call) {
    TensorValue Object = eval(Call.getImplicitObjectArgument());
    llvm::StringRef Name = Call.getMethodDecl()->getName();
    TensorValue Result;
    Result.ZeroDim = Object.ZeroDim;
    Result.From = Origin::Moved;
    Result.Source = &Call;
    DeviceValue Target;
    if (Name == "cuda")
      // Named "an accelerator" in messages: `.cuda()` has no device to name.
      Target = {Place::Accelerator, nullptr, false};
    else if (Name == "cpu")
      Target = {Place::Cpu, &Call, false};
    else
      Target = moveTarget(Call, Object);
    if (Target.Device == Place::Unknown)
      return TensorValue();
    Result.Device = Target.Device;
    Result.DeviceExpr = Target.Where;
    Result.MaybeAccelerator = Target.Maybe;
    return Result;
  }

  /// The device of `x.to(...)`: a device, options or another tensor; a dtype
  /// alone keeps the object's device.
  DeviceValue moveTarget(const CXXMemberCallExpr &Call, const TensorValue &Object) {
    for (const Expr *Arg : Call.arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      QualType Type = Arg->getType();
      if (api::namesADevice(Type))
        return evalDevice(Arg);
      if (api::isTensorType(Type)) {
        TensorValue Other = eval(Arg);
        return {Other.Device, Other.DeviceExpr, Other.MaybeAccelerator};
      }
      if (api::isTensorOptionsType(Type)) {
        OptionsValue Options = evalOptions(Arg);
        if (Options.Opaque)
          return {};
        if (Options.HasDevice)
          return Options.Device;
        if (Options.Like)
          return {Options.Like->Device, Options.Like->DeviceExpr,
                  Options.Like->MaybeAccelerator};
      }
    }
    return {Object.Device, Object.DeviceExpr, Object.MaybeAccelerator};
  }

  TensorValue evalFactory(const CallExpr &Call) {
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
    if (Reporting && !Result.ZeroDim &&
        llvm::find(Facts.DevicelessFactories, &Call) ==
            Facts.DevicelessFactories.end())
      Facts.DevicelessFactories.push_back(&Call);
    return Result;
  }

  TensorValue evalFactoryLike(const CallExpr &Call) {
    OptionsValue Options = factoryOptions(Call);
    if (Options.Opaque)
      return TensorValue();
    if (Options.HasDevice) {
      TensorValue Result;
      Result.Device = Options.Device.Device;
      Result.DeviceExpr = Options.Device.Where;
      Result.MaybeAccelerator = Options.Device.Maybe;
      Result.Source = &Call;
      return Result;
    }
    return Call.getNumArgs() ? derived(eval(Call.getArg(0)), false)
                             : TensorValue();
  }

  OptionsValue factoryOptions(const CallExpr &Call) {
    OptionsValue Result;
    for (const Expr *Arg : Call.arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      if (api::isTensorOptionsType(Arg->getType()))
        return evalOptions(Arg);
      if (api::namesADevice(Arg->getType())) {
        Result.HasDevice = true;
        Result.Device = evalDevice(Arg);
      }
    }
    return Result;
  }

  OptionsValue evalOptions(const Expr *E) {
    E = utils::ignoreTemporaries(E);
    OptionsValue Result;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 0)
        return Result;
      const Expr *Arg = Construct->getArg(0);
      if (api::namesADevice(Arg->getType())) {
        Result.HasDevice = true;
        Result.Device = evalDevice(Arg);
        return Result;
      }
      if (api::isTensorOptionsType(Arg->getType()))
        return evalOptions(Arg);
      // A dtype, layout or memory format: no device.
      return Result;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      const Expr *Object = Member->getImplicitObjectArgument();
      llvm::StringRef Name =
          Member->getMethodDecl() ? Member->getMethodDecl()->getName() : "";
      if (Name == "options" && api::isTensorType(Object->getType())) {
        Result.Like = eval(Object);
        return Result;
      }
      if (!api::isTensorOptionsType(Object->getType()))
        return opaque();
      Result = evalOptions(Object);
      applyOption(Name, *Member, Result);
      return Result;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !api::isLibTorchInternal(Callee))
        return opaque();
      applyOption(Callee->getName(), *Call, Result);
      return Result;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (Var->hasLocalStorage() && Var->getInit() && !isReassigned(Var))
          return evalOptions(Var->getInit());
    return opaque();
  }

  static OptionsValue opaque() {
    OptionsValue Result;
    Result.Opaque = true;
    return Result;
  }

  void applyOption(llvm::StringRef Name, const CallExpr &Call,
                   OptionsValue &Result) {
    if (Name == "device" && Call.getNumArgs() > 0) {
      Result.HasDevice = true;
      Result.Device = evalDevice(Call.getArg(0));
    } else if (Name == "requires_grad") {
      const Expr *Arg = Call.getNumArgs() ? Call.getArg(0) : nullptr;
      bool Value = true;
      if (Arg && !isa<CXXDefaultArgExpr>(Arg)) {
        Expr::EvalResult Evaluated;
        const Expr *Bare = utils::ignoreTemporaries(Arg);
        if (const auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
            Construct && Construct->getNumArgs() == 1)
          Bare = utils::ignoreTemporaries(Construct->getArg(0));
        Value = Bare->EvaluateAsBooleanCondition(Value, Ctx) && Value;
      }
      Result.RequiresGrad = Value;
    }
  }

  DeviceValue evalDevice(const Expr *E) {
    E = utils::ignoreTemporaries(E);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 0)
        return {};
      DeviceValue Inner = evalDevice(Construct->getArg(0));
      // `torch::Device(torch::kCUDA, 1)` as written names the device; an
      // implicit conversion (a DeviceType variable passed as a Device) keeps
      // the name the user wrote.
      return isa<CXXTemporaryObjectExpr>(Construct) ? withWhere(Inner, E)
                                                    : Inner;
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
      DeviceValue True = evalDevice(Cond->getTrueExpr());
      DeviceValue False = evalDevice(Cond->getFalseExpr());
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
      const auto *Var = dyn_cast<VarDecl>(D);
      if (Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
          Var->getInit() && !isReassigned(Var))
        return withWhere(evalDevice(Var->getInit()), E);
      // A parameter, a member, a global or a variable set on several paths:
      // it may be an accelerator unless it provably is not.
      return {Place::Accelerator, E, true};
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return {Place::Accelerator, E, true};
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      const Expr *Object = Call->getImplicitObjectArgument();
      if (Call->getMethodDecl() && Call->getMethodDecl()->getName() == "device" &&
          api::isTensorType(Object->getType())) {
        TensorValue Tensor = eval(Object);
        if (Tensor.Device == Place::Cpu)
          return {Place::Cpu, E, false};
        return {Place::Accelerator, E, true};
      }
    }
    if (isa<CallExpr>(E) && api::namesADevice(E->getType()))
      return {Place::Accelerator, E, true};
    return {};
  }

  static DeviceValue withWhere(DeviceValue Value, const Expr *Where) {
    // Name the device by the expression the user wrote at the use.
    if (Value.Device != Place::Unknown)
      Value.Where = Where;
    return Value;
  }

  // ---- Modules ------------------------------------------------------------

  /// The module whose forward \p Call runs: `model->forward(x)`, `model(x)`.
  const ValueDecl *forwardedModule(const CallExpr &Call) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      if (!Method || Method->getName() != "forward" ||
          !api::isModuleClass(Method->getParent()))
        return nullptr;
      return api::moduleReceiver(Member->getImplicitObjectArgument());
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
      if (Op->getOperator() == OO_Call && api::heldModule(Op->getArg(0)->getType()))
        return api::moduleReceiver(Op->getArg(0));
    return nullptr;
  }

  static unsigned explicitArguments(const CallExpr &Call) {
    return llvm::count_if(Call.arguments(), [](const Expr *Arg) {
      return !isa<CXXDefaultArgExpr>(Arg);
    });
  }

  /// What a forward returns: on the module's device once it was moved; for a
  /// module built here and never moved, on the CPU; otherwise where its input
  /// is, if that is an accelerator (a forward that runs at all computes
  /// there).
  TensorValue forwardOutput(const CallExpr &Call, const ValueDecl *Module) {
    auto It = Current.Modules.find(Module);
    if (It != Current.Modules.end() && It->second.Device == Place::Accelerator)
      return moduleOutput(Module);
    TensorValue Input = firstTensorArgument(Call);
    if (Input.Device == Place::Accelerator)
      return derived(Input, false);
    if (It != Current.Modules.end() && It->second.Device == Place::Cpu &&
        Input.Device == Place::Cpu) {
      TensorValue Result;
      Result.Device = Place::Cpu;
      return Result;
    }
    return TensorValue();
  }

  TensorValue firstTensorArgument(const CallExpr &Call) {
    for (const Expr *Arg : Call.arguments())
      if (api::isTensorType(Arg->getType()))
        return eval(Arg);
    return TensorValue();
  }

  TensorValue moduleOutput(const ValueDecl *Module) {
    auto It = Current.Modules.find(Module);
    if (It == Current.Modules.end() || It->second.Device != Place::Accelerator)
      return TensorValue();
    TensorValue Result;
    Result.Device = Place::Accelerator;
    Result.DeviceExpr = It->second.Target.Where;
    Result.MaybeAccelerator = It->second.Target.Maybe;
    Result.From = Origin::ModuleOutput;
    Result.Source = It->second.MovedAt;
    return Result;
  }

  // ---- Functions of the same file, in the context of their calls ---------

  /// The facts of the function \p Call runs, in the context of what this
  /// call passes it.
  const FunctionFacts *callee(const CallExpr &Call) {
    const FunctionDecl *Definition = userDefinition(Call.getDirectCallee());
    if (!Definition)
      return nullptr;
    CallContext Context = contextOf(Call);
    State Entry = arguments(Call, *Definition, Context);
    // A method called on `this` sees the fields as they are here.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
        Member && isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreImplicit()))
      copyFields(Current, Entry);
    if ((Entry.Tensors.empty() && Entry.Modules.empty()) ||
        Context.Chain.size() > MaxCallDepth)
      return &analyze(*Definition, Ctx);
    return &analyzeInContext(*Definition, Ctx, std::move(Entry),
                             std::move(Context));
  }

  /// The definition of \p Fn with its body, when it is the user's code (not
  /// LibTorch's, not a system header's).
  const FunctionDecl *userDefinition(const FunctionDecl *Fn) const {
    const FunctionDecl *Definition = Fn ? Fn->getDefinition() : nullptr;
    if (!Definition || !Definition->getBody() ||
        api::isLibTorchInternal(Definition) ||
        Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()))
      return nullptr;
    return Definition;
  }

  /// The chain of calls that leads to \p Call.
  CallContext contextOf(const CallExpr &Call) const {
    CallContext Context;
    if (Facts.Context)
      Context.Chain = Facts.Context->Chain;
    Context.Chain.push_back(&Call);
    return Context;
  }

  /// The parameters of \p Definition whose argument in \p Call is known:
  /// tensors with a device, modules moved to an accelerator.
  State arguments(const CallExpr &Call, const FunctionDecl &Definition,
                  CallContext &Context) {
    State Entry;
    // `a(b)` through an operator method: the object is argument 0.
    unsigned Offset = isa<CXXOperatorCallExpr>(Call) &&
                      isa<CXXMethodDecl>(Definition);
    for (unsigned I = 0; I + Offset < Call.getNumArgs() &&
                         I < Definition.getNumParams();
         ++I) {
      const ParmVarDecl *Param = Definition.getParamDecl(I);
      const Expr *Arg = Call.getArg(I + Offset);
      QualType Type = Param->getType().getNonReferenceType();
      if (api::heldModule(Type)) {
        const ValueDecl *Module = api::moduleReceiver(Arg);
        auto It = Module ? Current.Modules.find(Module) : Current.Modules.end();
        if (It != Current.Modules.end() && It->second.Device == Place::Accelerator)
          Entry.Modules[Param] = It->second;
        continue;
      }
      if (!api::isTensorType(Type) && !api::isTensorSequenceType(Type))
        continue;
      TensorValue Value = eval(Arg);
      if (Value.Device == Place::Unknown)
        continue;
      Entry.Tensors[Param] = Value;
      Context.Arguments.emplace_back(Arg, Value);
    }
    return Entry;
  }

  static void copyFields(const State &From, State &To) {
    for (const auto &[Decl, Value] : From.Tensors)
      if (isa<FieldDecl>(Decl))
        To.Tensors.emplace(Decl, Value);
    for (const auto &[Decl, Value] : From.Modules)
      if (isa<FieldDecl>(Decl))
        To.Modules.emplace(Decl, Value);
  }

  /// `model->forward(x)` on a module moved to an accelerator: its forward()
  /// runs with the registered members on that device.
  void enterForward(const CallExpr &Call, const ValueDecl &Module) {
    auto It = Current.Modules.find(&Module);
    const CXXRecordDecl *Record = api::heldModule(Module.getType());
    if (It == Current.Modules.end() || It->second.Device != Place::Accelerator ||
        !Record || (Facts.Context && Facts.Context->Chain.size() >= MaxCallDepth))
      return;
    const FunctionDecl *Definition = userDefinition(forwardOf(Call, *Record));
    if (!Definition)
      return;
    CallContext Context = contextOf(Call);
    Context.Module = &Module;
    Context.ModuleDevice = moduleOutput(&Module);
    State Entry = arguments(Call, *Definition, Context);
    // A CPU input is reported at this call (device-unmoved-input); inside,
    // it would only be reported again at each layer it reaches.
    llvm::erase_if(Context.Arguments, [](const auto &Argument) {
      return Argument.second.Device == Place::Cpu;
    });
    for (auto Param = Entry.Tensors.begin(); Param != Entry.Tensors.end();)
      Param = Param->second.Device == Place::Cpu ? Entry.Tensors.erase(Param)
                                                 : std::next(Param);
    const api::Registrations &Registered = registrationsOf(*Record, Ctx);
    for (const FieldDecl *Field : Record->fields()) {
      if (!Registered.Fields.count(Field))
        continue;
      if (api::heldModule(Field->getType()))
        Entry.Modules[Field] = It->second;
      else if (api::isTensorType(Field->getType()) &&
               !Registered.AssignedAfterConstruction.count(Field))
        Entry.Tensors[Field] = moduleOutput(&Module);
    }
    analyzeInContext(*Definition, Ctx, std::move(Entry), std::move(Context));
  }

  /// The forward() that \p Call runs: the method called, or the one a
  /// ModuleHolder's operator() forwards to.
  static const CXXMethodDecl *forwardOf(const CallExpr &Call,
                                        const CXXRecordDecl &Record) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      return Member->getMethodDecl();
    const CXXMethodDecl *Found = nullptr;
    for (const CXXMethodDecl *Method : Record.methods())
      if (Method->getDeclName().isIdentifier() && Method->getName() == "forward") {
        if (Found)
          return nullptr; // overloaded: which one runs is not known here
        Found = Method;
      }
    return Found;
  }

  /// How deep a chain of calls the analysis follows with contexts.
  static constexpr size_t MaxCallDepth = 8;

  // ---- Operations where devices meet --------------------------------------

  std::vector<std::pair<const Expr *, TensorValue>> operands(const CallExpr &Call) {
    std::vector<std::pair<const Expr *, TensorValue>> Result;
    auto Add = [&](const Expr *E) {
      QualType Type = E->getType();
      if (api::isTensorType(Type)) {
        Result.emplace_back(E, eval(E));
        return;
      }
      // cat/stack take a TensorList built from `{a, b}`.
      const Expr *Bare = utils::ignoreTemporaries(E);
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
          Construct && Construct->getNumArgs() >= 1)
        Bare = utils::ignoreTemporaries(Construct->getArg(0));
      if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(Bare))
        Bare = utils::ignoreTemporaries(StdList->getSubExpr());
      if (const auto *List = dyn_cast<InitListExpr>(Bare))
        for (const Expr *Init : List->inits())
          if (api::isTensorType(Init->getType()))
            Result.emplace_back(Init, eval(Init));
    };
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      Add(Member->getImplicitObjectArgument());
    for (const Expr *Arg : Call.arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        Add(Arg);
    return Result;
  }

  void checkOperation(const CallExpr &Call) {
    bool IsLossModule = false;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
        Op && Op->getOperator() == OO_Call)
      if (const CXXRecordDecl *Module = api::heldModule(Op->getArg(0)->getType());
          Module && api::isLossModule(Module))
        IsLossModule = true;
    // `criterion(out, target)` is a loss, not a forward to check the input of.
    if (const ValueDecl *Module = forwardedModule(Call); Module && !IsLossModule) {
      checkForward(Call, Module);
      return;
    }
    api::OpKind Kind = api::classifyFunction(Call.getDirectCallee());
    if (IsLossModule)
      Kind = api::OpKind::Loss;
    if (Kind != api::OpKind::ElementWise &&
        Kind != api::OpKind::ElementWiseInPlace &&
        Kind != api::OpKind::SameDevice && Kind != api::OpKind::Loss)
      return;
    auto Operands = operands(Call);
    if (Kind == api::OpKind::Loss && isa<CXXOperatorCallExpr>(Call))
      Operands.erase(Operands.begin(), Operands.end() - std::min<size_t>(Operands.size(), 2));
    const std::pair<const Expr *, TensorValue> *Accelerator = nullptr;
    for (const auto &Operand : Operands)
      if (Operand.second.Device == Place::Accelerator) {
        Accelerator = &Operand;
        break;
      }
    if (!Accelerator)
      return;
    for (size_t I = 0; I < Operands.size(); ++I) {
      const auto &[E, Value] = Operands[I];
      if (Value.Device != Place::Cpu)
        continue;
      bool IsOutput = Kind == api::OpKind::ElementWiseInPlace && I == 0;
      bool ScalarExempt = Value.ZeroDim && !IsOutput &&
                          (Kind == api::OpKind::ElementWise ||
                           Kind == api::OpKind::ElementWiseInPlace ||
                           Kind == api::OpKind::Loss);
      if (ScalarExempt)
        continue;
      Conflict C{classify(Kind, Call, Value), Kind, &Call, E, Value,
                 Accelerator->first, Accelerator->second};
      C.Operands = Operands.size();
      C.CpuPosition = I;
      C.AcceleratorPosition = Accelerator - Operands.data();
      record(std::move(C));
      return;
    }
  }

  static bool isMetric(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee)
      return false;
    std::string Name = Callee->getNameAsString();
    return Name == "eq" || Name == "ne" || Name == "operator==" ||
           Name == "operator!=";
  }

  Conflict::Kind classify(api::OpKind Kind, const CallExpr &Call,
                          const TensorValue &Cpu) {
    if (Cpu.From == Origin::FactoryWithoutDevice)
      return Conflict::FactoryWithoutDevice;
    if (Cpu.From == Origin::DataBatch &&
        (Kind == api::OpKind::Loss || isMetric(Call)))
      return Conflict::UnmovedTarget;
    return Conflict::Mismatch;
  }

  void checkForward(const CallExpr &Call, const ValueDecl *Module) {
    auto It = Current.Modules.find(Module);
    if (It == Current.Modules.end() || It->second.Device != Place::Accelerator)
      return;
    // The input is the first tensor; later ones may belong on the CPU
    // (pack_padded_sequence's lengths).
    for (const Expr *Arg : Call.arguments()) {
      if (!api::isTensorType(Arg->getType()))
        continue;
      TensorValue Value = eval(Arg);
      if (Value.Device != Place::Cpu || Value.ZeroDim)
        return;
      TensorValue ModuleDevice = moduleOutput(Module);
      Conflict C{Conflict::UnmovedInput, api::OpKind::Other, &Call, Arg, Value,
                 &Call, ModuleDevice, It->second.MovedAt, Module};
      Facts.Conflicts.push_back(C);
      return;
    }
  }

  void record(Conflict C) {
    if (C.Cause == Conflict::UnmovedTarget)
      C.RelatedMove = firstBatchMove();
    Facts.Conflicts.push_back(std::move(C));
  }

  /// The first `.to()` of a batch field in the function: the input's move.
  const Expr *firstBatchMove() {
    if (!BatchMoves)
      BatchMoves = findBatchMoves();
    return *BatchMoves;
  }

  const Expr *findBatchMoves() {
    struct Finder : RecursiveASTVisitor<Finder> {
      const Expr *Found = nullptr;
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
        const CXXMethodDecl *Method = Call->getMethodDecl();
        if (Found || !Method || !api::isTensorType(Method->getThisType()->getPointeeType()))
          return true;
        if (Method->getName() != "to" && Method->getName() != "cuda")
          return true;
        if (const auto *Member = dyn_cast<MemberExpr>(utils::ignoreTemporaries(Call->getImplicitObjectArgument())))
          if (api::isDataExample(utils::ignoreTemporaries(Member->getBase())->getType()))
            Found = Call;
        return true;
      }
    } Finder;
    Finder.TraverseStmt(const_cast<Stmt *>(Fn.getBody()));
    return Finder.Found;
  }

  void checkLeafMove(const CallExpr &Call) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    if (!Member || !Member->getMethodDecl())
      return;
    llvm::StringRef Name = Member->getMethodDecl()->getName();
    if ((Name != "to" && Name != "cuda") ||
        !api::isTensorType(Member->getImplicitObjectArgument()->getType()))
      return;
    TensorValue Object = eval(Member->getImplicitObjectArgument());
    if (!Object.RequiresGradLeaf)
      return;
    TensorValue Moved = evalMove(*Member);
    if (Moved.Device != Place::Accelerator)
      return;
    Facts.LeafMoves.push_back({Member, Object, nullptr});
  }

  // ---- Syntactic facts ----------------------------------------------------

  void collectLoopVariables(const Stmt &Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::DenseMap<const VarDecl *, const Expr *> *Out;
      bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
        (*Out)[Loop->getLoopVariable()] = Loop->getRangeInit();
        return true;
      }
    } Finder;
    Finder.Out = &LoopRanges;
    Finder.TraverseStmt(const_cast<Stmt *>(&Body));
  }

  void countAssignments(const Stmt &Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::DenseSet<const VarDecl *> *Out;
      void note(const Expr *Target) {
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
          if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
            Out->insert(Var);
      }
      bool VisitBinaryOperator(BinaryOperator *Op) {
        if (Op->isAssignmentOp())
          note(Op->getLHS());
        return true;
      }
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
        if (Op->isAssignmentOp() && Op->getNumArgs() >= 1)
          note(Op->getArg(0));
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *Op) {
        // `&device` may be written through.
        if (Op->getOpcode() == UO_AddrOf)
          note(Op->getSubExpr());
        return true;
      }
    } Finder;
    Finder.Out = &Reassigned;
    Finder.TraverseStmt(const_cast<Stmt *>(&Body));
  }

  bool isReassigned(const VarDecl *Var) const { return Reassigned.count(Var); }

  const FunctionDecl &Fn;
  ASTContext &Ctx;
  State EntryState;
  llvm::DenseMap<const CFGBlock *, State> Entry;
  State Current;
  bool Reporting = false;
  FunctionFacts Facts;
  llvm::DenseMap<const VarDecl *, const Expr *> LoopRanges;
  llvm::DenseSet<const VarDecl *> Reassigned;
  std::optional<const Expr *> BatchMoves;

  bool SeenReturn = false;
};

/// A declaration of a context's state, independent of provenance: a
/// parameter's index or a field's name.
std::string keyOf(const ValueDecl *Decl) {
  if (const auto *Param = dyn_cast<ParmVarDecl>(Decl))
    return "p" + std::to_string(Param->getFunctionScopeIndex());
  return "f" + Decl->getNameAsString();
}

/// The abstract values of a context, without provenance: contexts that agree
/// on them give the same facts.
std::string contextKey(const State &Entry) {
  std::string Key;
  for (const auto &[Decl, Value] : Entry.Tensors)
    Key += keyOf(Decl) + ":" + std::to_string(int(Value.Device)) +
           std::to_string(Value.ZeroDim) + std::to_string(Value.RequiresGradLeaf) +
           std::to_string(int(Value.From)) + std::to_string(Value.MaybeAccelerator) +
           std::to_string(Value.EmptySequence) + ";";
  for (const auto &[Decl, Value] : Entry.Modules)
    Key += keyOf(Decl) + ":m" + std::to_string(int(Value.Device)) + ";";
  return Key;
}

const FunctionFacts &analyzeInContext(const FunctionDecl &Fn, ASTContext &Ctx,
                                      State Entry, CallContext Context) {
  TranslationUnitCache &Cache = cacheFor(Ctx);
  auto Key = std::make_pair(&Fn, contextKey(Entry));
  auto It = Cache.InContext.find(Key);
  if (It != Cache.InContext.end())
    return *It->second;
  static const FunctionFacts Empty;
  if (!Cache.InProgress.insert(&Fn).second)
    return Empty; // recursion: no summary
  auto Facts = std::make_unique<FunctionFacts>(
      FunctionAnalysis(Fn, Ctx, std::move(Entry), std::move(Context)).run());
  Cache.InProgress.erase(&Fn);
  Cache.ContextOrder.push_back(Facts.get());
  return *(Cache.InContext[Key] = std::move(Facts));
}

const api::Registrations &registrationsOf(const CXXRecordDecl &Record,
                                          ASTContext &Ctx) {
  TranslationUnitCache &Cache = cacheFor(Ctx);
  auto It = Cache.Registered.find(&Record);
  if (It == Cache.Registered.end())
    It = Cache.Registered.try_emplace(&Record, api::collectRegistrations(Record, Ctx)).first;
  return It->second;
}

} // namespace

void resetTranslationUnit() {
  Cache.Facts.clear();
  Cache.InContext.clear();
  Cache.ContextOrder.clear();
  Cache.Registered.clear();
  Cache.InProgress.clear();
  Cache.NamesAccelerator.reset();
  Cache.Context = nullptr;
}

const FunctionFacts &analyze(const FunctionDecl &Fn, ASTContext &Ctx) {
  TranslationUnitCache &Cache = cacheFor(Ctx);
  auto It = Cache.Facts.find(&Fn);
  if (It != Cache.Facts.end())
    return *It->second;
  static const FunctionFacts Empty;
  if (!Cache.InProgress.insert(&Fn).second)
    return Empty; // recursion: no summary
  auto Facts = std::make_unique<FunctionFacts>(FunctionAnalysis(Fn, Ctx).run());
  Cache.InProgress.erase(&Fn);
  return *(Cache.Facts[&Fn] = std::move(Facts));
}

std::vector<const FunctionFacts *> contextFacts(const ASTContext &Ctx) {
  return cacheFor(Ctx).ContextOrder;
}

bool namesAccelerator(ASTContext &Ctx) {
  TranslationUnitCache &Cache = cacheFor(Ctx);
  if (Cache.NamesAccelerator)
    return *Cache.NamesAccelerator;
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager *SM;
    bool Found = false;
    bool inMain(SourceLocation Loc) const {
      return SM->isInMainFile(SM->getExpansionLoc(Loc));
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (!Found && inMain(Ref->getLocation())) {
        if (auto Accelerator = api::isAcceleratorConstant(Ref->getDecl()))
          Found = *Accelerator;
        if (const auto *Fn = dyn_cast<FunctionDecl>(Ref->getDecl()))
          Found |= Fn->getQualifiedNameAsString() == "torch::cuda::is_available";
      }
      return !Found;
    }
    bool VisitStringLiteral(StringLiteral *Literal) {
      if (!Found && inMain(Literal->getBeginLoc()) && Literal->isOrdinary())
        Found = api::isAcceleratorString(Literal->getString()).value_or(false);
      return !Found;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      if (!Found && inMain(Call->getBeginLoc()) && Call->getMethodDecl() &&
          Call->getMethodDecl()->getName() == "cuda")
        Found = true;
      return !Found;
    }
  } Finder;
  Finder.SM = &Ctx.getSourceManager();
  for (Decl *D : utils::scopeDeclarations(Ctx)) {
    if (Finder.Found)
      break;
    if (Finder.SM->isInMainFile(Finder.SM->getExpansionLoc(D->getLocation())))
      Finder.TraverseDecl(D);
  }
  Cache.NamesAccelerator = Finder.Found;
  return Finder.Found;
}

std::string describeDevice(const TensorValue &Value, const ASTContext &Ctx) {
  std::string Name = "an accelerator";
  if (Value.DeviceExpr)
    if (auto Text = utils::sourceText(*Value.DeviceExpr, Ctx))
      Name = "'" + *Text + "'";
  if (Value.MaybeAccelerator)
    return Name + " (which may be a GPU)";
  return Name;
}

} // namespace clang::tidy::torch_tidy::flow
