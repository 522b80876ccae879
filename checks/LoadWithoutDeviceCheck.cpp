//===--- LoadWithoutDeviceCheck.cpp - device-load-without-device ----------===//

#include "LoadWithoutDeviceCheck.h"
#include "api/TorchApi.h"
#include "flow/TranslationUnitAnalysis.h"
#include "utils/AstHelpers.h"
#include "utils/RecordedPlace.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void LoadWithoutDeviceCheck::onStartOfTranslationUnit() {
  flow::TranslationUnitAnalysis::reset();
}

void LoadWithoutDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(api::checkpointLoadFunction().bind("fn"))).bind("call"),
      this);
}

static bool passesADevice(const CallExpr &Call) {
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && api::namesADevice(Arg->getType()))
      return true;
  return false;
}

/// A module or an optimizer: loading into it changes existing parameters.
static bool hasParameters(QualType Type) {
  if (api::heldModule(Type))
    return true;
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record &&
         llvm::StringRef(Record->getQualifiedNameAsString()).starts_with("torch::optim::");
}

/// The last `Module::to(d)` of the module \p Module before \p Load in the
/// same function.
static const CXXMemberCallExpr *moveBefore(const ValueDecl &Module,
                                           const CallExpr &Load,
                                           ASTContext &Ctx) {
  const Stmt *Body = utils::enclosingFunctionBody(Load, Ctx);
  if (!Body)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  const CXXMemberCallExpr *Last = nullptr;
  for (const BoundNodes &Node :
       match(findAll(cxxMemberCallExpr().bind("move")), *Body, Ctx)) {
    const auto *Move = Node.getNodeAs<CXXMemberCallExpr>("move");
    if (api::isModuleTo(*Move) && Move->getNumArgs() > 0 &&
        api::moduleReceiver(Move->getImplicitObjectArgument()) == &Module &&
        SM.isBeforeInTranslationUnit(Move->getEndLoc(), Load.getBeginLoc()) &&
        (!Last || SM.isBeforeInTranslationUnit(Last->getBeginLoc(),
                                               Move->getBeginLoc())))
      Last = Move;
  }
  return Last;
}

/// A local device variable initialised with the CPU: `torch::Device d(kCPU);`.
/// Parameters and members come from elsewhere and may be anything.
static bool isCpuLocal(const ValueDecl &Device) {
  const auto *Var = dyn_cast<VarDecl>(&Device);
  if (!Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
      !Var->getInit())
    return false;
  const Expr *Init = utils::ignoreTemporaries(Var->getInit());
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Init)) {
    if (Construct->getNumArgs() == 0)
      return false;
    Init = utils::ignoreTemporaries(Construct->getArg(0));
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Init))
    return api::isAcceleratorConstant(Ref->getDecl()) == false;
  if (const auto *Literal = dyn_cast<StringLiteral>(Init))
    return api::isAcceleratorString(Literal->getString()) == false;
  return false;
}

/// When \p Module is a module parameter of a function that other files
/// call (`load_checkpoint(model, path)`): the fact that one of them passes
/// it moved to an accelerator. None without a cross-file recorder.
static std::optional<flow::Need> movedByTheCaller(const ValueDecl *Module,
                                                  ASTContext &Ctx) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(Module);
  const auto *Fn =
      Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!Fn || !flow::crossFileRecorder() || !Fn->isExternallyVisible() ||
      !Ctx.getSourceManager().isInMainFile(Fn->getLocation()))
    return std::nullopt;
  return flow::Need{flow::Need::CalledWithMovedModule,
                    flow::TranslationUnitAnalysis::of(Ctx).entityOf(*Fn),
                    Param->getFunctionScopeIndex()};
}

void LoadWithoutDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  ASTContext &Ctx = *Result.Context;
  // LibTorch's own loads (torch::load's body calls load_from) are the user's
  // call's business, reported there.
  if (passesADevice(*Call) || Call->getBeginLoc().isMacroID() ||
      api::isInLibTorch(*Call, Ctx))
    return;

  std::string Name = Fn->getQualifiedNameAsString();
  bool IntoParameters = Name == "torch::load" && Call->getNumArgs() > 0 &&
                        hasParameters(Call->getArg(0)->getType());
  const ValueDecl *Module =
      IntoParameters ? api::moduleReceiver(Call->getArg(0)) : nullptr;
  const CXXMemberCallExpr *Move =
      Module ? moveBefore(*Module, *Call, Ctx) : nullptr;
  std::optional<std::string> MovedTo =
      Move ? utils::sourceText(*Move->getArg(0), Ctx) : std::nullopt;
  auto Devices = api::devicesInScope(*Call, Ctx);
  // A file that names no accelerator, loading where no device other than the
  // CPU is at hand: nothing says the program ever uses another device, unless
  // the module is a parameter that a caller in another file moved first.
  std::optional<flow::Need> Condition;
  if (!flow::TranslationUnitAnalysis::of(Ctx).namesAccelerator() &&
      llvm::all_of(Devices, [](const ValueDecl *D) { return isCpuLocal(*D); })) {
    Condition = movedByTheCaller(Module, Ctx);
    if (!Condition)
      return;
  }
  if (Condition)
    if (auto At = utils::recordedPlace(Call->getBeginLoc(),
                                       Ctx.getSourceManager()))
      flow::crossFileRecorder()->conditional(getID(), *At, *Condition);
  {
    auto Diag =
        MovedTo
            ? diag(Call->getBeginLoc(),
                   "'%0' without a device moves the parameters of '%1' back "
                   "to the device the checkpoint was saved from, undoing its "
                   "move to '%2'; pass '%2' to load to")
                  << Name << Module->getName() << *MovedTo
            : diag(Call->getBeginLoc(),
                   "'%0' without a device restores every tensor to the device "
                   "it was saved from%select{|, and the existing parameters "
                   "adopt it}1; pass the device to load to")
                  << Name << IntoParameters;
    Diag << Call->getSourceRange();
    std::optional<std::string> Device = MovedTo;
    if (!Device && Devices.size() == 1)
      Device = Devices.front()->getName().str();
    if (Device && Call->getRParenLoc().isValid() &&
        !Call->getRParenLoc().isMacroID())
      Diag << FixItHint::CreateInsertion(Call->getRParenLoc(), ", " + *Device);
  }
  if (Move && MovedTo)
    diag(Move->getBeginLoc(), "'%0' is moved to '%1' here", DiagnosticIDs::Note)
        << Module->getName() << *MovedTo;
}

} // namespace clang::tidy::torch_tidy
