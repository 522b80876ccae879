//===--- ParsedCode.cpp - A translation unit to run the dataflow on -------===//

#include "ParsedCode.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy::test {

ParsedCode::ParsedCode(const std::string &Code, bool RealHeaders) {
  std::vector<std::string> Args = {"-std=c++17",
                                   "-resource-dir=" TORCH_TIDY_TEST_RESOURCE_DIR};
  if (RealHeaders)
    Args.insert(Args.end(), {"-I" TORCH_TIDY_TEST_TORCH_INCLUDE, "-include-pch",
                             TORCH_TIDY_TEST_PCH});
  else
    Args.push_back("-I" TORCH_TIDY_TEST_STANDIN);
  clang::tidy::torch_tidy::flow::TranslationUnitAnalysis::reset();
  AST = tooling::buildASTFromCodeWithArgs(Code, Args, "input.cpp");
}

ParsedCode::~ParsedCode() {
  clang::tidy::torch_tidy::flow::TranslationUnitAnalysis::reset();
}

bool ParsedCode::hasErrors() const {
  return !AST || AST->getDiagnostics().hasErrorOccurred();
}

const FunctionDecl &ParsedCode::function(const std::string &Name) {
  auto Found = match(
      functionDecl(hasName(Name), isDefinition(), unless(isImplicit()))
          .bind("f"),
      context());
  if (Found.empty())
    ADD_FAILURE() << "no definition of " << Name;
  return *Found.front().getNodeAs<FunctionDecl>("f");
}

const clang::tidy::torch_tidy::flow::FunctionFacts &
ParsedCode::root(const std::string &Name) {
  return analysis().root(function(Name));
}

const Expr &ParsedCode::lastUse(const std::string &Function,
                                const std::string &Var) {
  auto Found =
      match(findAll(declRefExpr(to(varDecl(hasName(Var)))).bind("ref")),
            *this->function(Function).getBody(), context());
  if (Found.empty())
    ADD_FAILURE() << "no use of " << Var << " in " << Function;
  const Expr *Last = nullptr;
  for (const BoundNodes &Node : Found) {
    const auto *Ref = Node.getNodeAs<Expr>("ref");
    if (!Last || context().getSourceManager().isBeforeInTranslationUnit(
                     Last->getBeginLoc(), Ref->getBeginLoc()))
      Last = Ref;
  }
  return *Last;
}

const Expr &ParsedCode::call(const std::string &Function,
                             const std::string &Callee) {
  auto Found = match(
      findAll(callExpr(callee(functionDecl(hasName(Callee)))).bind("call")),
      *this->function(Function).getBody(), context());
  if (Found.empty())
    ADD_FAILURE() << "no call of " << Callee << " in " << Function;
  return *Found.front().getNodeAs<Expr>("call");
}

} // namespace torch_tidy::test
