//===--- FactoryOnDevice.cpp - A factory then a move, as one factory ------===//

#include "FactoryOnDevice.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::torch_tidy::api {

bool isFillMethod(const CXXMethodDecl *Method) {
  return utils::isNamedOneOf(Method, {"fill_", "zero_", "uniform_", "normal_", "bernoulli_",
                         "random_", "exponential_", "geometric_",
                         "log_normal_", "cauchy_"}) &&
         isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0)) &&
         llvm::none_of(Method->parameters(), [](const ParmVarDecl *P) {
           return isTensorType(P->getType());
         });
}

const CallExpr *factoryBeneathFills(const Expr &Object) {
  const Expr *E = utils::ignoreTemporaries(&Object);
  while (const auto *Fill = dyn_cast<CXXMemberCallExpr>(E)) {
    if (!isFillMethod(Fill->getMethodDecl()))
      return nullptr;
    E = utils::ignoreTemporaries(Fill->getImplicitObjectArgument());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && classifyFunction(Call->getDirectCallee()) == OpKind::Factory
             ? Call
             : nullptr;
}

bool buildsFromHostData(const CallExpr &Factory) {
  return utils::isNamedOneOf(Factory.getDirectCallee(), {"tensor"});
}

/// What a Scalar argument was built from: `1` in `torch::arange(1, n)`.
static QualType scalarSource(const Expr *Arg) {
  Arg = utils::ignoreTemporaries(Arg);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
      Construct && Construct->getNumArgs() == 1)
    Arg = Construct->getArg(0)->IgnoreParenImpCasts();
  return Arg->getType();
}

ValuesOnDevice valuesOnDevice(const CallExpr &Factory,
                              const CXXMemberCallExpr &Move) {
  for (const Expr *E = utils::ignoreTemporaries(Move.getImplicitObjectArgument());
       E != &Factory;) {
    const auto *Fill = cast<CXXMemberCallExpr>(E);
    if (!utils::isNamedOneOf(Fill->getMethodDecl(), {"fill_", "zero_"}))
      return ValuesOnDevice::OtherRandomNumbers;
    E = utils::ignoreTemporaries(Fill->getImplicitObjectArgument());
  }
  const FunctionDecl *Fn = Factory.getDirectCallee();
  if (utils::isNamedOneOf(Fn, {"rand", "randn", "randint", "randperm"}))
    return ValuesOnDevice::OtherRandomNumbers;
  if (utils::isNamedOneOf(Fn, {"linspace", "logspace"}))
    return ValuesOnDevice::OtherRounding;
  if (utils::isNamedOneOf(Fn, {"arange"}) &&
      !llvm::all_of(Factory.arguments(), [](const Expr *Arg) {
        return isa<CXXDefaultArgExpr>(Arg) ||
               isTensorOptionsType(Arg->getType()) ||
               scalarSource(Arg)->isIntegerType();
      }))
    return ValuesOnDevice::OtherRounding;
  return ValuesOnDevice::Same;
}

/// The device \p Move copies to, as written: `device` in `.to(device)`,
/// `torch::kCUDA` for `.cuda()`.
static std::optional<std::string> moveTarget(const CXXMemberCallExpr &Move,
                                             const ASTContext &Ctx) {
  const CXXMethodDecl *Method = Move.getMethodDecl();
  if (utils::isNamedOneOf(Method, {"cuda"}))
    return std::string("torch::kCUDA");
  if (!utils::isNamedOneOf(Method, {"to"}) || Move.getNumArgs() == 0 ||
      llvm::any_of(llvm::drop_begin(Move.arguments()), [](const Expr *Arg) {
        return !isa<CXXDefaultArgExpr>(Arg);
      }))
    return std::nullopt;
  // `x.to(device)` converts the device to TensorOptions.
  const Expr *Target = Move.getArg(0)->IgnoreImplicit();
  if (const auto *Conversion = dyn_cast<CXXConstructExpr>(Target);
      Conversion && Conversion->getNumArgs() == 1)
    Target = Conversion->getArg(0)->IgnoreImplicit();
  if (!isDeviceOrDeviceType(Target->getType()))
    return std::nullopt;
  return utils::sourceText(*Target, Ctx);
}

/// Whether `<E>.device(d)` applies to all of \p E as written.
static bool isPostfix(const Expr &E) {
  return isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr,
             CXXTemporaryObjectExpr, CXXFunctionalCastExpr>(E);
}

/// The written options argument of \p Factory, in which the device goes.
static std::optional<FixItHint> deviceInOptions(const Expr &Options,
                                                const std::string &Device,
                                                const ASTContext &Ctx) {
  if (Options.getBeginLoc().isMacroID() || Options.getEndLoc().isMacroID())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Written = utils::ignoreTemporaries(&Options);
  // A dtype, layout or memory format converted to TensorOptions.
  if (const auto *Conversion = dyn_cast<CXXConstructExpr>(Written);
      Conversion && Conversion->getNumArgs() == 1) {
    const Expr *From = Conversion->getArg(0)->IgnoreImplicit();
    auto Text = utils::sourceText(*From, Ctx);
    if (!Text)
      return std::nullopt;
    const auto *Tag = From->getType()->getAsTagDecl();
    bool IsDtype = hasQualifiedName(Tag, {"c10::ScalarType", "caffe2::TypeMeta"});
    return FixItHint::CreateReplacement(
        Options.getSourceRange(),
        (IsDtype ? "torch::dtype(" : "torch::TensorOptions(") + *Text +
            ").device(" + Device + ")");
  }
  SourceLocation After = Lexer::getLocForEndOfToken(Options.getEndLoc(), 0, SM,
                                                    Ctx.getLangOpts());
  if (isPostfix(*Written))
    return FixItHint::CreateInsertion(After, ".device(" + Device + ")");
  auto Text = utils::sourceText(Options, Ctx);
  if (!Text)
    return std::nullopt;
  return FixItHint::CreateReplacement(Options.getSourceRange(),
                                      "(" + *Text + ").device(" + Device + ")");
}

/// `, torch::device(d)` after \p Factory's written arguments, when the next
/// parameter is its options.
static std::optional<FixItHint> deviceAsOptions(const CallExpr &Factory,
                                                const std::string &Device) {
  const FunctionDecl *Fn = Factory.getDirectCallee();
  unsigned Written = llvm::count_if(Factory.arguments(), [](const Expr *Arg) {
    return !isa<CXXDefaultArgExpr>(Arg);
  });
  if (!Fn || Written >= Fn->getNumParams() ||
      !isTensorOptionsType(Fn->getParamDecl(Written)->getType()))
    return std::nullopt;
  return FixItHint::CreateInsertion(Factory.getRParenLoc(),
                                    std::string(Written ? ", " : "") +
                                        "torch::device(" + Device + ")");
}

std::vector<FixItHint> createOnDevice(const CallExpr &Factory,
                                      const CXXMemberCallExpr &Move,
                                      const ASTContext &Ctx) {
  if (Factory.getBeginLoc().isMacroID() || Factory.getEndLoc().isMacroID() ||
      Move.getBeginLoc().isMacroID() || Move.getEndLoc().isMacroID())
    return {};
  auto Device = moveTarget(Move, Ctx);
  if (!Device)
    return {};
  const Expr *Options = nullptr;
  for (const Expr *Arg : Factory.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isTensorOptionsType(Arg->getType()))
      Options = Arg;
  std::optional<FixItHint> Insert = Options
                                        ? deviceInOptions(*Options, *Device, Ctx)
                                        : deviceAsOptions(Factory, *Device);
  if (!Insert)
    return {};
  SourceLocation AfterObject = Lexer::getLocForEndOfToken(
      Move.getImplicitObjectArgument()->getEndLoc(), 0, Ctx.getSourceManager(),
      Ctx.getLangOpts());
  return {*Insert, FixItHint::CreateRemoval(CharSourceRange::getTokenRange(
                       AfterObject, Move.getEndLoc()))};
}

} // namespace clang::tidy::torch_tidy::api
