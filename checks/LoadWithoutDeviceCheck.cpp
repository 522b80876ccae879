//===--- LoadWithoutDeviceCheck.cpp - device-load-without-device ----------===//

#include "LoadWithoutDeviceCheck.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

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

void LoadWithoutDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (passesADevice(*Call) || Call->getBeginLoc().isMacroID())
    return;

  std::string Name = Fn->getQualifiedNameAsString();
  auto Diag = diag(Call->getBeginLoc(),
                   "'%0' without a device restores every tensor to the device "
                   "it was saved from%select{|, and the existing parameters "
                   "adopt it}1; pass the device to load to")
              << Name << (Name == "torch::load") << Call->getSourceRange();
  auto Devices = utils::devicesInScope(*Call, *Result.Context);
  if (Devices.size() == 1 && Call->getRParenLoc().isValid() &&
      !Call->getRParenLoc().isMacroID())
    Diag << FixItHint::CreateInsertion(Call->getRParenLoc(),
                                       ", " + Devices.front()->getName().str());
}

} // namespace clang::tidy::torch_tidy
