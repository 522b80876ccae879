//===--- ExtensionOps.cpp - The ops and kernel launches of a CUDA extension -===//

#include "ExtensionOps.h"
#include "api/ExtensionApi.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::torch_tidy::flow {

struct ExtensionOps::Facts {
  std::vector<const CUDAKernelCallExpr *> Launches;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Calls;
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Callers;
  std::vector<SourceLocation> Guards;
  std::vector<std::pair<const ValueDecl *, SourceLocation>> CudaChecks;
  bool Registered = false;
  /// Its address is taken here other than for Python: called through a
  /// pointer, by a dispatcher that may take the guard (mmcv's
  /// REGISTER_DEVICE_IMPL).
  bool Escaped = false;
};

const FunctionDecl *definitionOf(const FunctionDecl *Fn) {
  if (!Fn)
    return nullptr;
  if (const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern())
    Fn = Pattern;
  return Fn->getDefinition();
}

/// The tensor variable \p E is a view or a copy of: `x` in
/// `x.contiguous()`, `x.to(kFloat)`, `x`.
static const ValueDecl *rootTensor(const Expr *E) {
  auto Bare = [](const Expr *E) { return E->IgnoreImplicit()->IgnoreParenImpCasts(); };
  E = Bare(E);
  while (true) {
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() == 1) {
      E = Bare(Construct->getArg(0));
      continue;
    }
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    if (!Call || !api::isTensorMethod(Call->getMethodDecl()))
      break;
    E = Bare(Call->getImplicitObjectArgument());
  }
  return utils::namedObject(*E);
}

const ParmVarDecl *parameterBehind(const ValueDecl *Tensor) {
  for (unsigned Depth = 0; Tensor && Depth < 8; ++Depth) {
    if (const auto *Param = dyn_cast<ParmVarDecl>(Tensor))
      return Param;
    const auto *Local = dyn_cast<VarDecl>(Tensor);
    if (!Local || !Local->getInit())
      return nullptr;
    const ValueDecl *Root = rootTensor(Local->getInit());
    Tensor = Root == Tensor ? nullptr : Root;
  }
  return nullptr;
}

/// The functions that \p Call registers: `&f` or `f` among its arguments,
/// or TORCH_FN(f)'s template argument.
static void addRegistered(const CXXMemberCallExpr &Call,
                          llvm::SmallVectorImpl<const FunctionDecl *> &Out) {
  for (const Expr *Arg : Call.arguments()) {
    Arg = Arg->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
        Construct && Construct->getNumArgs() == 1)
      Arg = Construct->getArg(0)->IgnoreImplicit();
    if (const auto *AddressOf = dyn_cast<UnaryOperator>(Arg))
      Arg = AddressOf->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts())) {
      if (const auto *Fn = dyn_cast<FunctionDecl>(Ref->getDecl()))
        Out.push_back(Fn);
      continue;
    }
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Arg->getType()->getAsCXXRecordDecl());
    if (!Spec || Spec->getName() != "CompileTimeFunctionPointer")
      continue;
    for (const TemplateArgument &Template : Spec->getTemplateArgs().asArray())
      if (Template.getKind() == TemplateArgument::Declaration)
        if (const auto *Fn = dyn_cast<FunctionDecl>(Template.getAsDecl()))
          Out.push_back(Fn);
  }
}

namespace {
/// The facts of one function's body, its lambdas' bodies included.
class BodyFacts : public RecursiveASTVisitor<BodyFacts> {
public:
  ExtensionOps::Facts &Into;
  llvm::SmallVector<const FunctionDecl *, 4> Registered;
  explicit BodyFacts(ExtensionOps::Facts &Into) : Into(Into) {}

  bool VisitCallExpr(CallExpr *Call) {
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
      Into.Launches.push_back(Launch);
      return true;
    }
    if (const FunctionDecl *Callee = definitionOf(Call->getDirectCallee()))
      Into.Calls.push_back({Call, Callee});
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      if (const ValueDecl *Checked = api::cudaCheckedTensor(*Member))
        Into.CudaChecks.push_back({Checked, Call->getBeginLoc()});
      if (api::isRegistrationCall(*Member))
        addRegistered(*Member, Registered);
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (api::isDeviceGuardType(Var->getType()))
      Into.Guards.push_back(Var->getLocation());
    return true;
  }
};

/// The function definitions of the main file, lambdas left to their
/// enclosing function.
class Definitions : public RecursiveASTVisitor<Definitions> {
public:
  const SourceManager &SM;
  std::vector<const FunctionDecl *> Found;
  llvm::SmallPtrSet<const Expr *, 32> Callees;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Escaped;
  explicit Definitions(const SourceManager &SM) : SM(SM) {}
  bool VisitCallExpr(CallExpr *Call) {
    if (const Expr *Callee = Call->getCallee())
      Callees.insert(Callee->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Fn = dyn_cast<FunctionDecl>(Ref->getDecl());
        Fn && !Callees.contains(Ref) &&
        SM.isInMainFile(SM.getExpansionLoc(Ref->getBeginLoc())))
      Escaped.insert(Fn);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *Fn) {
    if (!Fn->doesThisDeclarationHaveABody() ||
        // the body's brace: PYBIND11_MODULE's function has a pasted name
        !SM.isInMainFile(SM.getExpansionLoc(Fn->getBody()->getBeginLoc())))
      return true;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
        Method && Method->getParent()->isLambda())
      return true;
    Found.push_back(Fn);
    return true;
  }
};
} // namespace

ExtensionOps::ExtensionOps(ASTContext &Ctx) : Ctx(Ctx) {
  Definitions Defs(Ctx.getSourceManager());
  Defs.TraverseAST(Ctx);
  Order = std::move(Defs.Found);
  llvm::SmallVector<const FunctionDecl *, 8> Registered;
  for (const FunctionDecl *Fn : Order) {
    auto Facts = std::make_unique<ExtensionOps::Facts>();
    BodyFacts Body(*Facts);
    Body.TraverseStmt(Fn->getBody());
    Registered.append(Body.Registered.begin(), Body.Registered.end());
    ByFunction[Fn] = std::move(Facts);
  }
  for (const FunctionDecl *Fn : Order)
    for (const auto &[Call, Callee] : ByFunction[Fn]->Calls)
      if (auto It = ByFunction.find(Callee); It != ByFunction.end())
        It->second->Callers.push_back({Fn, Call});
  for (const FunctionDecl *Fn : Registered)
    if (auto It = ByFunction.find(definitionOf(Fn)); It != ByFunction.end())
      It->second->Registered = true;
  for (const FunctionDecl *Fn : Defs.Escaped)
    if (auto It = ByFunction.find(definitionOf(Fn)); It != ByFunction.end())
      It->second->Escaped = !It->second->Registered;
}

ExtensionOps::~ExtensionOps() = default;

const ExtensionOps::Facts *ExtensionOps::facts(const FunctionDecl *Fn) const {
  auto It = ByFunction.find(Fn);
  return It == ByFunction.end() ? nullptr : It->second.get();
}

llvm::ArrayRef<const CUDAKernelCallExpr *>
ExtensionOps::launches(const FunctionDecl *Fn) const {
  const Facts *F = facts(Fn);
  return F ? llvm::ArrayRef(F->Launches) : std::nullopt;
}

bool ExtensionOps::launchesKernels(const FunctionDecl *Fn) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return launchesKernels(Fn, Seen);
}

bool ExtensionOps::launchesKernels(
    const FunctionDecl *Fn,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const {
  const Facts *F = facts(Fn);
  if (!F || !Seen.insert(Fn).second)
    return false;
  return !F->Launches.empty() ||
         llvm::any_of(F->Calls, [&](const auto &Call) {
           return launchesKernels(Call.second, Seen);
         });
}

bool ExtensionOps::hasCallers(const FunctionDecl *Fn) const {
  const Facts *F = facts(Fn);
  return F && !F->Callers.empty();
}

const ParmVarDecl *firstTensorParameter(const FunctionDecl &Fn) {
  for (const ParmVarDecl *Param : Fn.parameters())
    if (api::isTensorType(Param->getType()))
      return Param;
  return nullptr;
}

bool ExtensionOps::isPartOfTensorOp(const FunctionDecl *Fn) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return isPartOfTensorOp(Fn, Seen);
}

bool ExtensionOps::isPartOfTensorOp(
    const FunctionDecl *Fn,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const {
  const Facts *F = facts(Fn);
  if (!F || !Seen.insert(Fn).second)
    return false;
  return firstTensorParameter(*Fn) ||
         llvm::any_of(F->Callers, [&](const auto &C) {
           return isPartOfTensorOp(C.first, Seen);
         });
}

bool ExtensionOps::isReachedOnlyFromPython(const FunctionDecl *Fn) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return isReachedOnlyFromPython(Fn, Seen);
}

bool ExtensionOps::isReachedOnlyFromPython(
    const FunctionDecl *Fn,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const {
  const Facts *F = facts(Fn);
  if (!F || !Seen.insert(Fn).second)
    return false;
  if (F->Registered)
    return true;
  return !F->Callers.empty() && llvm::all_of(F->Callers, [&](const auto &C) {
    return isReachedOnlyFromPython(C.first, Seen);
  });
}

bool ExtensionOps::isGuardedAt(const FunctionDecl *Fn, SourceLocation At) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return isGuardedAt(Fn, At, Seen);
}

bool ExtensionOps::isGuardedAt(
    const FunctionDecl *Fn, SourceLocation At,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const {
  const Facts *F = facts(Fn);
  if (!F || !Seen.insert(Fn).second)
    return true; // recursion: not known, so quiet
  const SourceManager &SM = Ctx.getSourceManager();
  if (llvm::any_of(F->Guards, [&](SourceLocation Guard) {
        return SM.isBeforeInTranslationUnit(Guard, At);
      }))
    return true;
  if (F->Escaped)
    return true; // its callers are not known
  if (F->Registered || F->Callers.empty())
    return false;
  return llvm::all_of(F->Callers, [&](const auto &C) {
    return isGuardedAt(C.first, C.second->getBeginLoc(), Seen);
  });
}

bool ExtensionOps::isCudaCheckedAt(const FunctionDecl *Fn,
                                   const ValueDecl *Tensor,
                                   SourceLocation At) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return isCudaCheckedAt(Fn, Tensor, At, Seen);
}

bool ExtensionOps::isCudaCheckedAt(
    const FunctionDecl *Fn, const ValueDecl *Tensor, SourceLocation At,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const {
  const Facts *F = facts(Fn);
  if (!F || !Tensor || !Seen.insert(Fn).second)
    return true; // recursion: not known, so quiet
  const SourceManager &SM = Ctx.getSourceManager();
  if (llvm::any_of(F->CudaChecks, [&](const auto &Check) {
        return Check.first == Tensor &&
               SM.isBeforeInTranslationUnit(Check.second, At);
      }))
    return true;
  // `auto x = input.contiguous();`: a check of `input` is one of `x`.
  if (const auto *Local = dyn_cast<VarDecl>(Tensor);
      Local && !isa<ParmVarDecl>(Local) && Local->getInit()) {
    const ValueDecl *Root = rootTensor(Local->getInit());
    Seen.erase(Fn);
    return Root && Root != Tensor && isCudaCheckedAt(Fn, Root, At, Seen);
  }
  const auto *Param = dyn_cast<ParmVarDecl>(Tensor);
  if (!Param || F->Registered || F->Callers.empty())
    return false;
  unsigned Index = Param->getFunctionScopeIndex();
  return llvm::all_of(F->Callers, [&](const auto &C) {
    if (Index >= C.second->getNumArgs())
      return false;
    const ValueDecl *Passed = rootTensor(C.second->getArg(Index));
    llvm::SmallPtrSet<const FunctionDecl *, 8> Path(Seen.begin(), Seen.end());
    return Passed && isCudaCheckedAt(C.first, Passed, C.second->getBeginLoc(), Path);
  });
}

std::vector<const CallExpr *>
ExtensionOps::launcherCalls(const FunctionDecl *Fn) const {
  std::vector<const CallExpr *> Calls;
  if (const Facts *F = facts(Fn))
    for (const auto &[Call, Callee] : F->Calls)
      if (launchesKernels(Callee))
        Calls.push_back(Call);
  return Calls;
}

/// The tensor memory that \p Arg is: the access itself, or a local pointer
/// or accessor initialised with it.
static std::optional<MemoryToKernel> memoryOf(const Expr *Arg,
                                              const CallExpr *Launch) {
  const CXXMemberCallExpr *Access = api::tensorMemoryAccess(*Arg);
  if (!Access)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts()))
      if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
          Local && Local->isLocalVarDecl() && Local->getInit())
        Access = api::tensorMemoryAccess(*Local->getInit()->IgnoreImplicit());
  if (!Access)
    return std::nullopt;
  const ValueDecl *Tensor = rootTensor(Access->getImplicitObjectArgument());
  if (!Tensor)
    return std::nullopt;
  return MemoryToKernel{Access, Tensor, Launch};
}

std::vector<MemoryToKernel>
ExtensionOps::memoryToKernels(const FunctionDecl *Fn) const {
  std::vector<MemoryToKernel> Memory;
  std::vector<const CallExpr *> Targets(launches(Fn).begin(), launches(Fn).end());
  for (const CallExpr *Call : launcherCalls(Fn))
    Targets.push_back(Call);
  for (const CallExpr *Target : Targets)
    for (const Expr *Arg : Target->arguments())
      if (std::optional<MemoryToKernel> Found = memoryOf(Arg, Target))
        Memory.push_back(*Found);
  return Memory;
}

} // namespace clang::tidy::torch_tidy::flow
