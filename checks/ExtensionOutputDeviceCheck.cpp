//===--- ExtensionOutputDeviceCheck.cpp - extension-output-device ---------===//

#include "ExtensionOutputDeviceCheck.h"
#include "api/ExtensionApi.h"
#include "flow/ExtensionOps.h"
#include "utils/AstHelpers.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void ExtensionOutputDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

namespace {
/// The tensors of an op's body (lambdas included) allocated by a factory,
/// `auto out = torch::zeros(...)` or `out = torch::zeros(...)`, and those
/// its return statements name.
class OutputAllocations : public RecursiveASTVisitor<OutputAllocations> {
public:
  std::vector<std::pair<const VarDecl *, const CallExpr *>> Allocated;
  llvm::SmallPtrSet<const ValueDecl *, 4> Returned;
  bool InReturn = false;

  void allocated(const Decl *Target, const Expr *Value) {
    const auto *Var = dyn_cast_or_null<VarDecl>(Target);
    const auto *Call = dyn_cast<CallExpr>(Value->IgnoreImplicit());
    if (Var && Call && api::isOutputFactory(*Call))
      Allocated.push_back({Var, Call});
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->getInit())
      allocated(Var, Var->getInit());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getOperator() == OO_Equal && Call->getNumArgs() == 2)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts()))
        allocated(Ref->getDecl(), Call->getArg(1));
    return true;
  }
  bool TraverseReturnStmt(ReturnStmt *Return) {
    bool Outer = InReturn;
    InReturn = true;
    RecursiveASTVisitor::TraverseReturnStmt(Return);
    InReturn = Outer;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (InReturn)
      Returned.insert(Ref->getDecl());
    return true;
  }
};
} // namespace

/// `x.options().dtype(kFloat)` for `torch::kFloat`, the dtype alone.
static std::optional<FixItHint> inputOptions(const CallExpr &Factory,
                                             const FunctionDecl &Op,
                                             const VarDecl &Output,
                                             ASTContext &Ctx) {
  const Expr *Options = api::factoryOptionsArgument(Factory);
  const Expr *Dtype = Options ? api::dtypeOnlyOptions(*Options) : nullptr;
  const ParmVarDecl *Input = flow::firstTensorParameter(Op);
  if (!Dtype || !Input || Input == &Output || Options->getBeginLoc().isMacroID())
    return std::nullopt;
  std::optional<std::string> Text = utils::sourceText(*Dtype, Ctx);
  if (!Text)
    return std::nullopt;
  return FixItHint::CreateReplacement(
      Options->getSourceRange(),
      (Input->getName() + ".options().dtype(" + *Text + ")").str());
}

void ExtensionOutputDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  flow::ExtensionOps Ops(Ctx);
  for (const FunctionDecl *Fn : Ops.functions()) {
    if (!Ops.launchesKernels(Fn))
      continue;
    OutputAllocations Outputs;
    Outputs.TraverseStmt(Fn->getBody());
    llvm::SmallPtrSet<const ValueDecl *, 4> Written;
    for (const flow::MemoryToKernel &Memory : Ops.memoryToKernels(Fn))
      Written.insert(Memory.Tensor);
    for (const auto &[Output, Factory] : Outputs.Allocated) {
      bool IsWritten = Written.contains(Output);
      // A returned tensor of a branch, maybe the CPU path of the op.
      if (!IsWritten && (!Outputs.Returned.contains(Output) ||
                         utils::isUnderCondition(*Factory, Ctx)))
        continue;
      api::OutputDevice Device = api::outputDevice(*Factory);
      if (Device == api::OutputDevice::FromArguments ||
          (Device == api::OutputDevice::CurrentCuda &&
           Ops.isGuardedAt(Fn, Factory->getBeginLoc())))
        continue;
      auto Diag =
          diag(Factory->getBeginLoc(),
               "'%0' is allocated %select{on the CPU|on the current CUDA "
               "device}1 and %select{returned|written by a kernel}2: "
               "allocate it on the device of the op's inputs (x.options())")
          << Output->getName()
          << (Device == api::OutputDevice::CurrentCuda) << IsWritten
          << Factory->getSourceRange();
      if (std::optional<FixItHint> Fix = inputOptions(*Factory, *Fn, *Output, Ctx))
        Diag << *Fix;
    }
  }
}

} // namespace clang::tidy::torch_tidy
