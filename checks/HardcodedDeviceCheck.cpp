//===--- HardcodedDeviceCheck.cpp - device-hardcoded ----------------------===//

#include "HardcodedDeviceCheck.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void HardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  auto Own = unless(isInTemplateInstantiation());
  Finder->addMatcher(
      cxxConstructExpr(hasDeclaration(api::deviceIndexBuilder()), Own)
          .bind("indexed"),
      this);
  Finder->addMatcher(
      callExpr(callee(api::deviceIndexBuilder()), Own).bind("indexed"), this);
  auto FirstArg = hasArgument(0, expr().bind("arg"));
  Finder->addMatcher(cxxConstructExpr(hasDeclaration(api::deviceStringParser()),
                                      FirstArg, Own)
                         .bind("parsed"),
                     this);
  Finder->addMatcher(
      callExpr(callee(api::deviceStringParser()), FirstArg, Own).bind("parsed"),
      this);
  Finder->addMatcher(declRefExpr(to(api::cudaConstant()), Own).bind("constant"),
                     this);
  Finder->addMatcher(stmt(api::cudaConversionCall(), Own).bind("cuda"), this);
  Finder->addMatcher(
      callExpr(callee(api::cudaAvailabilityFunction())).bind("available"),
      this);
}

/// The tensor operation that \p Device (a device, a device type, or options
/// built from them) is passed to, through implicit conversions and device or
/// options builders. Null when it goes anywhere else: into a variable (the
/// place that chooses the device), a comparison, a function of the program.
static const CallExpr *operationTaking(const Expr &Device, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(Device);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return nullptr;
    const Stmt *Parent = Parents[0].get<Stmt>();
    const Stmt *Child = Node.get<Stmt>();
    if (!Parent)
      return nullptr;
    Node = Parents[0];
    if (const auto *Ternary = dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (Ternary->getCond() == Child)
        return nullptr;
      continue;
    }
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, ParenExpr, CXXFunctionalCastExpr, ConstantExpr,
            MemberExpr>(Parent))
      continue; // A MemberExpr is followed by its call, checked next.
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
      if (!api::isDeviceBuilder(Construct->getConstructor()))
        return nullptr;
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(Parent);
    if (!Call)
      return nullptr;
    if (api::isDeviceBuilder(Call->getDirectCallee()))
      continue;
    bool IsArgument = llvm::is_contained(Call->arguments(), Child);
    return IsArgument && api::isDeviceTakingOperation(Call->getDirectCallee())
               ? Call
               : nullptr;
  }
}

/// The places where a program chooses its device, never reported: `main`
/// reading its command line, and functions such as `torch::Device
/// pickDevice()` (a name with "device", returning a device).
static bool choosesTheDevice(const FunctionDecl &Fn) {
  if (Fn.isMain())
    return Fn.getNumParams() > 0;
  return Fn.getDeclName().isIdentifier() &&
         llvm::StringRef(Fn.getName()).lower().find("device") !=
             std::string::npos &&
         api::namesADevice(Fn.getReturnType());
}

/// The function \p S is in, when that is one whose devices are reported.
static const FunctionDecl *reportableFunction(const Stmt &S, ASTContext &Ctx) {
  const FunctionDecl *Fn = utils::enclosingFunction(S, Ctx);
  if (!Fn || api::isLibTorchInternal(Fn) || choosesTheDevice(*Fn))
    return nullptr;
  return Fn;
}

static bool isLiteral(const Expr *E) {
  return E && isa<IntegerLiteral>(E->IgnoreParenImpCasts());
}

static bool namesAnAccelerator(const Expr *Type) {
  const auto *Ref =
      Type ? dyn_cast<DeclRefExpr>(Type->IgnoreParenImpCasts()) : nullptr;
  return Ref && api::isAcceleratorConstant(Ref->getDecl()).value_or(false);
}

void HardcodedDeviceCheck::checkIndex(const Expr &Device, ASTContext &Ctx) {
  const Expr *Index = api::explicitDeviceIndex(Device);
  if (!isLiteral(Index))
    return;
  const Expr *Type = api::explicitDeviceType(Device);
  if (Type && !namesAnAccelerator(Type))
    return;
  if (std::optional<llvm::APSInt> Value = Index->getIntegerConstantExpr(Ctx))
    reportIndex(*Index, toString(*Value, 10), Device, Ctx);
}

void HardcodedDeviceCheck::reportIndex(const Expr &Index,
                                       llvm::StringRef Value,
                                       const Expr &Device, ASTContext &Ctx) {
  const CallExpr *Operation = operationTaking(Device, Ctx);
  if (!Operation || Index.getBeginLoc().isMacroID() ||
      !reportableFunction(Device, Ctx))
    return;
  IndexedOperations.insert(Operation);
  diag(Index.getBeginLoc(),
       "device index %0 is hard-coded in a call of '%1': choose the device "
       "in one place (a variable, a config member, a function returning it) "
       "and pass that")
      << Value << Operation->getDirectCallee()->getName()
      << Index.getSourceRange();
}

void HardcodedDeviceCheck::noteCudaUse(const Expr &Use,
                                       const CallExpr *Operation,
                                       ASTContext &Ctx) {
  SourceLocation Loc = Use.getExprLoc();
  if (!Operation || IndexedOperations.contains(Operation) || Loc.isMacroID() ||
      utils::isUnderCondition(Use, Ctx))
    return;
  const FunctionDecl *Fn = reportableFunction(Use, Ctx);
  if (!Fn)
    return;
  Sources = &Ctx.getSourceManager();
  Unit = &Ctx;
  auto [It, Inserted] = FirstCudaUse.try_emplace(Fn);
  if (!Inserted && !Sources->isBeforeInTranslationUnit(Loc, It->second.Loc))
    return;
  std::string Spelling = &Use == Operation
                             ? std::string("cuda()")
                             : utils::sourceText(Use, Ctx).value_or("cuda");
  It->second = {Loc, Use.getSourceRange(), Spelling, Operation};
}

void HardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto &Nodes = Result.Nodes;
  if (const auto *Call = Nodes.getNodeAs<CallExpr>("available")) {
    const FunctionDecl *Fn = utils::enclosingFunction(*Call, Ctx);
    ChecksAvailability |= !Fn || !api::isLibTorchInternal(Fn);
  } else if (const auto *Indexed = Nodes.getNodeAs<Expr>("indexed")) {
    checkIndex(*Indexed, Ctx);
  } else if (const auto *Constant = Nodes.getNodeAs<DeclRefExpr>("constant")) {
    noteCudaUse(*Constant, operationTaking(*Constant, Ctx), Ctx);
  } else if (const auto *Cuda = Nodes.getNodeAs<CXXMemberCallExpr>("cuda")) {
    noteCudaUse(*Cuda, Cuda, Ctx);
  } else if (const auto *Parsed = Nodes.getNodeAs<Expr>("parsed")) {
    const StringLiteral *Literal =
        utils::stringLiteralOf(*Nodes.getNodeAs<Expr>("arg"));
    if (!Literal || Literal->getCharByteWidth() != 1)
      return;
    llvm::StringRef Text = Literal->getString();
    std::optional<unsigned> Index = api::deviceStringIndex(Text);
    if (Index && api::isAcceleratorString(Text).value_or(false))
      reportIndex(*Literal, std::to_string(*Index), *Parsed, Ctx);
    if (api::isCudaString(Text))
      noteCudaUse(*Literal, operationTaking(*Parsed, Ctx), Ctx);
  }
}

/// Whether the project's code outside the checks' traversal scope (its
/// headers that --header-filter leaves out) asks whether CUDA is available.
/// System headers and LibTorch's namespaces are not searched.
static bool checksAvailabilityOutsideScope(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : utils::declarationsOutsideScope(Ctx)) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D);
        Namespace && api::isLibTorchNamespace(*Namespace))
      continue;
    if (!match(decl(hasDescendant(
                   callExpr(callee(api::cudaAvailabilityFunction())))),
               *D, Ctx)
             .empty())
      return true;
  }
  return false;
}

void HardcodedDeviceCheck::onEndOfTranslationUnit() {
  // "Never checks" needs the whole translation unit: with compiler errors,
  // the check may be in what the compiler could not parse.
  if (!ChecksAvailability && Sources &&
      !Sources->getDiagnostics().hasErrorOccurred() &&
      !checksAvailabilityOutsideScope(*Unit)) {
    std::vector<CudaUse> Uses;
    for (const auto &Entry : FirstCudaUse)
      if (!IndexedOperations.contains(Entry.second.Operation))
        Uses.push_back(Entry.second);
    std::sort(Uses.begin(), Uses.end(), [&](const CudaUse &A, const CudaUse &B) {
      return Sources->isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    for (const CudaUse &Use : Uses)
      diag(Use.Loc, "'%0' requires a CUDA device, but this translation unit "
                    "never checks torch::cuda::is_available() or "
                    "device_count(): it fails on a machine without a GPU")
          << Use.Spelling << Use.Range;
  }
  ChecksAvailability = false;
  FirstCudaUse.clear();
  IndexedOperations.clear();
  Sources = nullptr;
  Unit = nullptr;
}

} // namespace clang::tidy::torch_tidy
