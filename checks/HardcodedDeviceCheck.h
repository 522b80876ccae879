//===--- HardcodedDeviceCheck.h - device-hardcoded ------------------------===//

#ifndef TORCH_TIDY_CHECKS_HARDCODEDDEVICECHECK_H
#define TORCH_TIDY_CHECKS_HARDCODEDDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::torch_tidy {

/// Finds devices written into tensor operations instead of chosen once:
/// (a) a literal device index (`x.to(torch::Device(torch::kCUDA, 1))`), and
/// (b) an unconditional CUDA device (`torch::kCUDA`, `.cuda()`, "cuda") in a
/// translation unit that never checks torch::cuda::is_available().
class HardcodedDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void checkIndex(const Expr &Device, ASTContext &Ctx);
  void reportIndex(const Expr &Index, llvm::StringRef Value,
                   const Expr &Device, ASTContext &Ctx);
  void noteCudaUse(const Expr &Use, const CallExpr *Operation,
                   ASTContext &Ctx);

  /// Whether the translation unit asks whether CUDA is available.
  bool ChecksAvailability = false;
  /// The first unconditional CUDA use in each function, and how it is spelt.
  struct CudaUse {
    SourceLocation Loc;
    SourceRange Range;
    std::string Spelling;
    const CallExpr *Operation;
  };
  llvm::DenseMap<const FunctionDecl *, CudaUse> FirstCudaUse;
  /// Operations already reported for a literal index: not reported again.
  llvm::DenseSet<const CallExpr *> IndexedOperations;
  const SourceManager *Sources = nullptr;
  ASTContext *Unit = nullptr;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_HARDCODEDDEVICECHECK_H
