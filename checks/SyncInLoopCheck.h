//===--- SyncInLoopCheck.h - device-sync-in-loop ---------------------------===//

#ifndef TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H
#define TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "utils/LoopIterations.h"
#include "utils/ValueOrigins.h"
#include <memory>

namespace clang::tidy::torch_tidy {

/// Finds host-device synchronisations that run on every iteration of a loop
/// that queues device work: `loss.item<float>()`, `x.cpu()`,
/// `x.to(torch::kCPU)`, `torch::cuda::synchronize()`, `std::cout << x`,
/// `x.nonzero()`, in the loop or in a helper it calls. Quiet in a periodic
/// branch (`if (step % k == 0)`), in a loop that runs whole training or
/// evaluation loops (once per epoch), on tensors known to be on the CPU, and
/// in a program that never names an accelerator.
class SyncInLoopCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  void report(const Expr &Sync, const utils::LoopContext &Loop,
              ASTContext &Ctx);

  std::unique_ptr<utils::CallSites> Calls;
  std::unique_ptr<utils::ValueOrigins> Origins;
  /// Reported locations: a template's instantiations report once.
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H
