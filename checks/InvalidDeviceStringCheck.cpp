//===--- InvalidDeviceStringCheck.cpp - device-invalid-string -------------===//

#include "InvalidDeviceStringCheck.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void InvalidDeviceStringCheck::registerMatchers(MatchFinder *Finder) {
  auto FirstArg = hasArgument(0, expr().bind("arg"));
  Finder->addMatcher(
      cxxConstructExpr(hasDeclaration(api::deviceStringParser()), FirstArg),
      this);
  Finder->addMatcher(callExpr(callee(api::deviceStringParser()), FirstArg),
                     this);
}

/// A literal written as one plain "..." token, which a fix-it may replace.
static bool isPlainLiteral(const StringLiteral &Literal,
                           const ASTContext &Ctx) {
  if (!Literal.isOrdinary() || Literal.getNumConcatenated() != 1)
    return false;
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Literal.getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  return Text.starts_with("\"");
}

void InvalidDeviceStringCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Literal =
      utils::stringLiteralOf(*Result.Nodes.getNodeAs<Expr>("arg"));
  if (!Literal || Literal->getBeginLoc().isMacroID() ||
      Literal->getCharByteWidth() != 1)
    return;
  llvm::StringRef Text = Literal->getString();
  std::optional<api::DeviceStringProblem> Problem = api::checkDeviceString(Text);
  if (!Problem)
    return;
  if (!Problem->Throws) {
    diag(Literal->getBeginLoc(),
         "device string \"%0\" is misread by LibTorch: %1")
        << Text << Problem->Reason << Literal->getSourceRange();
    return;
  }
  auto Diag = diag(Literal->getBeginLoc(),
                   "device string \"%0\" is rejected by LibTorch: %1; "
                   "torch::Device throws at run time%select{|; use \"%3\"}2")
              << Text << Problem->Reason << Problem->Fix.has_value()
              << Problem->Fix.value_or("") << Literal->getSourceRange();
  if (Problem->Fix && isPlainLiteral(*Literal, *Result.Context))
    Diag << FixItHint::CreateReplacement(Literal->getSourceRange(),
                                         "\"" + *Problem->Fix + "\"");
}

} // namespace clang::tidy::torch_tidy
