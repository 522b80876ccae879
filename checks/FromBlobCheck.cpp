//===--- FromBlobCheck.cpp - device-from-blob -----------------------------===//

#include "FromBlobCheck.h"
#include "api/TensorMethods.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

using flow::Place;

namespace {

/// Where the memory behind a pointer lives, and how to name it.
struct Memory {
  Place Where = Place::Unknown;
  bool Maybe = false; // a tensor on a device that may be an accelerator
  std::string What;
};

bool recordNamed(QualType Type, std::initializer_list<llvm::StringRef> Names) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  std::string Name = Record->getQualifiedNameAsString();
  for (llvm::StringRef Candidate : Names)
    if (Name == Candidate)
      return true;
  return false;
}

const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr();
    else
      return E;
  }
}

class MemoryOrigin {
public:
  MemoryOrigin(const flow::FunctionFacts &Facts, const Stmt &Body,
               ASTContext &Ctx)
      : Facts(Facts), Body(Body), Ctx(Ctx) {}

  Memory of(const Expr *Pointer, unsigned Depth = 0) {
    const Expr *E = stripCasts(Pointer);
    if (Depth > 4)
      return {};
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Subscript)
      return ofContainer(Op->getArg(0)->getType());
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
      return ofMethodCall(*Call);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return ofCall(*Call);
    if (isa<CXXNewExpr>(E))
      return {Place::Cpu, false, "memory from 'new'"};
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      if (Member->getMemberDecl()->getName() == "data" &&
          recordNamed(Member->getBase()->getType(), {"cv::Mat"}))
        return {Place::Cpu, false, "a cv::Mat's pixels"};
    if (const auto *Unary = dyn_cast<UnaryOperator>(E);
        Unary && Unary->getOpcode() == UO_AddrOf)
    {
      const Expr *Element = Unary->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Element))
        return of(Subscript->getBase(), Depth + 1);
      return of(Element, Depth + 1); // `&v[0]` of a container
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return ofVariable(Ref, Depth);
    return {};
  }

private:
  Memory ofContainer(QualType Type) {
    if (recordNamed(Type, {"std::vector", "std::array", "std::basic_string",
                           "c10::SmallVector"}))
      return {Place::Cpu, false, "a host container's data"};
    if (recordNamed(Type, {"thrust::device_vector"}))
      return {Place::Accelerator, false, "a thrust::device_vector's data"};
    return {};
  }

  Memory ofMethodCall(const CXXMemberCallExpr &Call) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    if (!Method)
      return {};
    if (api::isRawAccess(Method)) {
      flow::TensorValue Tensor =
          Facts.deviceOf(*Call.getImplicitObjectArgument());
      if (Tensor.Device == Place::Cpu)
        return {Place::Cpu, false, "a CPU tensor's memory"};
      if (Tensor.Device == Place::Accelerator)
        return {Place::Accelerator, Tensor.MaybeAccelerator,
                "the memory of a tensor on " + flow::describeDevice(Tensor, Ctx)};
      return {};
    }
    if (Method->getName() == "data")
      return ofContainer(Call.getImplicitObjectArgument()->getType());
    return {};
  }

  Memory ofCall(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return {};
    std::string Name = Callee->getQualifiedNameAsString();
    if (Name == "malloc" || Name == "calloc" || Name == "aligned_alloc" ||
        Name == "std::malloc")
      return {Place::Cpu, false, "memory from '" + Callee->getName().str() + "'"};
    if (Name == "thrust::raw_pointer_cast" && Call.getNumArgs() == 1)
      return of(Call.getArg(0));
    return {};
  }

  /// A local pointer: what it was initialised with, or the allocator it was
  /// passed to (`cudaMalloc(&p, n)`).
  Memory ofVariable(const DeclRefExpr *Ref, unsigned Depth) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->hasLocalStorage())
      return {};
    if (Var->getType()->isArrayType())
      return {Place::Cpu, false, "an array on the stack"};
    std::optional<Memory> Allocated;
    auto Calls = match(
        findAll(callExpr(hasAnyArgument(ignoringParenCasts(unaryOperator(
                             hasOperatorName("&"),
                             hasUnaryOperand(declRefExpr(to(equalsNode(Var))))))))
                    .bind("alloc")),
        Body, Ctx);
    for (const BoundNodes &Node : Calls) {
      const FunctionDecl *Callee =
          Node.getNodeAs<CallExpr>("alloc")->getDirectCallee();
      llvm::StringRef Name = Callee && Callee->getDeclName().isIdentifier()
                                 ? Callee->getName()
                                 : "";
      if (Name == "cudaMalloc" || Name == "cudaMallocAsync" ||
          Name == "cudaMallocPitch")
        Allocated = Memory{Place::Accelerator, false, "memory from '" + Name.str() + "'"};
      else if (Name == "cudaMallocHost" || Name == "cudaHostAlloc")
        Allocated = Memory{Place::Cpu, false, "pinned host memory from '" + Name.str() + "'"};
      else
        return {}; // written by a call we do not know
    }
    if (Allocated)
      return *Allocated;
    if (Var->getInit() && !isa<ParmVarDecl>(Var))
      return of(Var->getInit(), Depth + 1);
    return {};
  }

  const flow::FunctionFacts &Facts;
  const Stmt &Body;
  ASTContext &Ctx;
};

} // namespace

void FromBlobCheck::report(const flow::FunctionFacts &Facts, ASTContext &Ctx) {
  for (const Expr *E : nodesIn(Facts, callExpr().bind("node"), Ctx)) {
    const auto *Call = cast<CallExpr>(E);
    if (!api::isFromBlob(Call->getDirectCallee()) || Call->getNumArgs() == 0 ||
        Call->getBeginLoc().isMacroID() || Reported.count(Call))
      continue;
    const Stmt *Body = Facts.Function->getBody();
    Memory Origin = MemoryOrigin(Facts, *Body, Ctx).of(Call->getArg(0));
    // The device the options name; the CPU when they name none.
    flow::TensorValue Wrapped = Facts.deviceOf(*Call);
    if (Origin.Where == Place::Cpu && Wrapped.Device == Place::Accelerator) {
      finding(Call->getBeginLoc(),
           "'from_blob' wraps %0 as a tensor on %1: it trusts the options' "
           "device, so GPU kernels would read host memory as device memory; "
           "wrap it on the CPU and move the tensor with '.to()'")
          << Origin.What << flow::describeDevice(Wrapped, Ctx)
          << Call->getSourceRange();
      Reported.insert(Call);
      noteCallChain(Facts, Ctx);
    } else if (Origin.Where == Place::Accelerator &&
               Wrapped.Device == Place::Cpu) {
      finding(Call->getBeginLoc(),
           "'from_blob' wraps %0 without a device: LibTorch takes it for CPU "
           "memory and the host reads device memory%select{| when that device "
           "is a GPU}1; pass the device in the options")
          << Origin.What << Origin.Maybe << Call->getSourceRange();
      Reported.insert(Call);
      noteCallChain(Facts, Ctx);
    }
  }
}

} // namespace clang::tidy::torch_tidy
