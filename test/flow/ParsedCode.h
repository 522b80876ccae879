//===--- ParsedCode.h - A translation unit to run the dataflow on ---------===//

#ifndef TORCH_TIDY_TEST_FLOW_PARSEDCODE_H
#define TORCH_TIDY_TEST_FLOW_PARSEDCODE_H

#include "flow/TranslationUnitAnalysis.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include <memory>
#include <string>
#include <vector>

namespace torch_tidy::test {

/// \p Code parsed against the stand-in LibTorch header (or, with \p Pch, the
/// real headers through the fixtures' precompiled header), with the
/// dataflow's per-translation-unit store reset.
class ParsedCode {
public:
  explicit ParsedCode(const std::string &Code, bool RealHeaders = false);
  ~ParsedCode();

  clang::ASTContext &context() { return AST->getASTContext(); }
  clang::tidy::torch_tidy::flow::TranslationUnitAnalysis &analysis() {
    return clang::tidy::torch_tidy::flow::TranslationUnitAnalysis::of(context());
  }
  /// The definition of the function or method named \p Name.
  const clang::FunctionDecl &function(const std::string &Name);
  /// The analysis of \p Name on its own.
  const clang::tidy::torch_tidy::flow::FunctionFacts &
  root(const std::string &Name);
  /// The last reference to the variable \p Var in the body of \p Function.
  const clang::Expr &lastUse(const std::string &Function,
                             const std::string &Var);
  /// The call of a function named \p Callee in \p Function (the first).
  const clang::Expr &call(const std::string &Function,
                          const std::string &Callee);
  /// Whether the compiler reported an error.
  bool hasErrors() const;

private:
  std::unique_ptr<clang::ASTUnit> AST;
};

} // namespace torch_tidy::test

#endif // TORCH_TIDY_TEST_FLOW_PARSEDCODE_H
