//===--- DeviceStringCompareCheck.cpp - device-string-compare -------------===//

#include "DeviceStringCompareCheck.h"
#include "api/TorchApi.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void DeviceStringCompareCheck::registerMatchers(MatchFinder *Finder) {
  auto Own = unless(isExpansionInSystemHeader());
  Finder->addMatcher(cxxOperatorCallExpr(hasAnyOverloadedOperatorName("==", "!="),
                                         argumentCountIs(2), Own)
                         .bind("equality"),
                     this);
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(
                            hasAnyName("find", "rfind", "compare", "starts_with"),
                            ofClass(hasName("::std::basic_string")))),
                        Own)
          .bind("search"),
      this);
}

void DeviceStringCompareCheck::onEndOfTranslationUnit() {
  Origins.reset();
  Calls.reset();
}

std::optional<DeviceStringCompareCheck::Printed>
DeviceStringCompareCheck::printedDevice(const Expr &E, ASTContext &Ctx,
                                        unsigned Depth) {
  if (auto Text = api::deviceText(E))
    return Printed{*Text, &E, true};
  if (Depth == 0)
    return std::nullopt;
  if (!Origins) {
    Calls = std::make_unique<utils::CallSites>(Ctx);
    Origins = std::make_unique<utils::ValueOrigins>(Ctx, *Calls);
  }
  // Every value the string can hold must be a device's name, all of one
  // kind: a string that is sometimes a command-line word is not one.
  std::optional<std::vector<const Expr *>> Values = Origins->of(E);
  if (!Values || Values->empty())
    return std::nullopt;
  std::optional<Printed> First;
  for (const Expr *Value : *Values) {
    std::optional<Printed> Each = printedDevice(*Value, Ctx, Depth - 1);
    if (!Each || (First && First->Text.What != Each->Text.What))
      return std::nullopt;
    if (!First)
      First = Each;
  }
  First->Direct = false;
  return First;
}

/// The comparison of a search's result that makes it a test: `s.find(x) !=
/// npos` (found) or `s.rfind(x, 0) == 0` (a prefix), and whether the test is
/// true when the text is found.
static const Expr *searchTest(const CXXMemberCallExpr &Search, ASTContext &Ctx,
                              bool &Found) {
  DynTypedNodeList Parents = Ctx.getParents(Search);
  while (!Parents.empty() && Parents[0].get<ImplicitCastExpr>())
    Parents = Ctx.getParents(Parents[0]);
  const auto *Test = Parents.empty() ? nullptr : Parents[0].get<BinaryOperator>();
  if (!Test || !Test->isEqualityOp())
    return nullptr;
  const Expr *Other = Test->getLHS()->IgnoreParenImpCasts() ==
                              Search.IgnoreParenImpCasts()
                          ? Test->getRHS()->IgnoreParenImpCasts()
                          : Test->getLHS()->IgnoreParenImpCasts();
  llvm::StringRef Method = Search.getMethodDecl()->getName();
  bool Equal = Test->getOpcode() == BO_EQ;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Other);
      Ref && Ref->getDecl()->getName() == "npos" &&
      (Method == "find" || Method == "rfind")) {
    Found = !Equal;
    return Test;
  }
  if (const auto *Zero = dyn_cast<IntegerLiteral>(Other);
      Zero && Zero->getValue().isZero() &&
      (Method == "compare" || (Method == "rfind" && Search.getNumArgs() > 1))) {
    Found = Equal;
    return Test;
  }
  return nullptr;
}

void DeviceStringCompareCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Equality =
          Result.Nodes.getNodeAs<CXXOperatorCallExpr>("equality")) {
    for (unsigned Side = 0; Side < 2; ++Side) {
      const StringLiteral *Literal =
          utils::stringLiteralOf(*Equality->getArg(1 - Side));
      if (Literal && !utils::stringLiteralOf(*Equality->getArg(Side))) {
        report(*Equality, *Equality->getArg(Side), *Literal,
               Equality->getOperator() == OO_ExclaimEqual, false, Ctx);
        return;
      }
    }
    return;
  }
  const auto *Search = Result.Nodes.getNodeAs<CXXMemberCallExpr>("search");
  if (Search->getNumArgs() == 0)
    return;
  const StringLiteral *Literal = utils::stringLiteralOf(*Search->getArg(0));
  if (!Literal)
    return;
  bool Found = true;
  const Expr *Test = searchTest(*Search, Ctx, Found);
  bool IsCompare = Search->getMethodDecl()->getName() == "compare";
  report(Test ? *Test : *static_cast<const Expr *>(Search),
         *Search->getImplicitObjectArgument(), *Literal, !Found,
         /*IsSearch=*/!IsCompare, Ctx);
}

/// Why comparing \p Text with \p Literal goes wrong; nothing when it is
/// right (a device's name compared with "cpu").
static std::optional<std::string> whyWrong(const api::DeviceText &Text,
                                           llvm::StringRef Literal,
                                           bool IsSearch) {
  auto [Type, Index] = Literal.split(':');
  bool HasIndex = Literal.contains(':');
  std::string Lower = Type.lower();
  if (Text.What == api::DeviceText::DeviceName) {
    if (Lower == "cpu")
      return std::nullopt; // the CPU prints as "cpu"
    if (Type != Lower)
      return "a device prints its type in lower case (\"" + Lower +
             ":0\"): this is never true";
    if (IsSearch)
      return "its type is tested by searching how it prints";
    if (HasIndex)
      return "this is true on \"" + Literal.str() +
             "\" only: on another device (\"" + Lower +
             (Index == "1" ? ":0" : ":1") +
             "\") the same code takes the other branch";
    if (api::deviceOwner(*Text.Printed))
      return "a tensor's device on a GPU carries its index and prints as \"" +
             Lower + ":0\", so this is never true for a tensor on a GPU";
    return "a device with an index prints it (\"" + Lower +
           ":0\"): this is true only for a device without one";
  }
  if (HasIndex)
    return "'DeviceTypeName()' prints no index: this is never true";
  if (!Text.LowerCase)
    return "'DeviceTypeName()' prints \"" + Type.upper() + "\" or \"" + Lower +
           "\" depending on its second argument";
  std::string Spelt = *Text.LowerCase ? Lower : Type.upper();
  if (Lower == "cpu" && Type == Spelt && !IsSearch)
    return std::nullopt;
  if (IsSearch || Type == Spelt)
    return "'DeviceTypeName()' spells the type \"" + Type.upper() +
           "\" by default and \"" + Lower + "\" when asked for lower case";
  return "'DeviceTypeName()' spells the type \"" + Spelt +
         "\" here: this is never true";
}

/// The test that replaces the string comparison, when it is plain.
static std::optional<std::string> replacement(const api::DeviceText &Text,
                                              llvm::StringRef Literal,
                                              bool Negated, bool IsSearch,
                                              const ASTContext &Ctx) {
  auto [Type, Index] = Literal.split(':');
  std::string Lower = Type.lower();
  std::optional<std::string> Printed = utils::sourceText(*Text.Printed, Ctx);
  if (!Printed)
    return std::nullopt;
  std::string Not = Negated ? "!" : "";
  if (Text.What == api::DeviceText::TypeName) {
    std::optional<std::string> Constant = api::deviceTypeConstant(Lower);
    if (!Constant || Literal.contains(':') || IsSearch)
      return std::nullopt;
    return *Printed + (Negated ? " != " : " == ") + *Constant;
  }
  if (Literal.contains(':')) {
    if (IsSearch || Type != Lower)
      return std::nullopt;
    return *Printed + (Negated ? " != " : " == ") + "torch::Device(\"" +
           Literal.str() + "\")";
  }
  std::optional<std::string> Test = api::deviceTypeTest(Lower);
  if (!Test)
    return std::nullopt;
  // `t.device().str() == "cuda"` asks whether the tensor is on CUDA.
  if (const Expr *Tensor = api::deviceOwner(*Text.Printed);
      Tensor && Lower == "cuda")
    if (auto Owner = utils::sourceText(*Tensor, Ctx))
      return Not + *Owner + ".is_cuda()";
  return Not + *Printed + "." + *Test + "()";
}

void DeviceStringCompareCheck::report(const Expr &Comparison,
                                      const Expr &Compared,
                                      const StringLiteral &Literal,
                                      bool Negated, bool IsSearch,
                                      ASTContext &Ctx) {
  if (!Literal.isOrdinary() || Comparison.getBeginLoc().isMacroID() ||
      api::isInLibTorch(Comparison, Ctx) ||
      !api::looksLikeDevice(Literal.getString()))
    return;
  std::optional<Printed> Source = printedDevice(Compared, Ctx);
  if (!Source)
    return;
  std::optional<std::string> Why =
      whyWrong(Source->Text, Literal.getString(), IsSearch);
  if (!Why)
    return;
  std::optional<std::string> Fix =
      Source->Direct ? replacement(Source->Text, Literal.getString(), Negated,
                                   IsSearch, Ctx)
                     : std::nullopt;
  {
    auto Diag = diag(Comparison.getExprLoc(),
                     "device compared through its string form: %0; "
                     "%select{compare the device or its type instead|use '%2'}1")
                << *Why << Fix.has_value() << Fix.value_or("")
                << Comparison.getSourceRange();
    if (Fix && !Comparison.getEndLoc().isMacroID())
      Diag << FixItHint::CreateReplacement(Comparison.getSourceRange(), *Fix);
  }
  if (!Source->Direct)
    diag(Source->Origin->getExprLoc(), "the string is the device's name "
                                       "printed here",
         DiagnosticIDs::Note);
  // Which string a device prints is the same on every machine: nothing for
  // the probe to replay.
  plans::recordNotReplayable(getID(), Comparison.getExprLoc(),
                             Ctx.getSourceManager());
}

} // namespace clang::tidy::torch_tidy
