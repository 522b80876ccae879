//===--- SyncInLoopCheck.h - device-sync-in-loop ---------------------------===//

#ifndef TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H
#define TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "utils/LoopIterations.h"
#include "utils/ValueOrigins.h"
#include <memory>
#include <vector>

namespace clang::tidy::torch_tidy {

/// Finds host-device synchronisations that run on every iteration of a loop
/// that queues device work: `loss.item<float>()`, `x.cpu()`,
/// `x.to(torch::kCPU)`, `torch::cuda::synchronize()`, `std::cout << x`,
/// `x.nonzero()`, in the loop or in a helper it calls. Quiet in a periodic
/// branch (`if (step % k == 0)`), in a loop that runs whole training or
/// evaluation loops (once per epoch), on tensors known to be on the CPU, in
/// a program that never names an accelerator, and, unless ReportNecessary,
/// where the iteration needs the value it reads (a branch, an index, host
/// code out of view). One finding per loop, at its first sync, with notes at
/// the others.
class SyncInLoopCheck : public ClangTidyCheck {
public:
  SyncInLoopCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  /// A sync to report, in the loop it drains on every iteration.
  struct Found {
    const Expr *Sync;
    utils::LoopContext Loop;
    /// The iteration needs the value it reads.
    bool Necessary;
  };
  /// Whether \p Sync reads a value that an iteration of \p Loop needs.
  bool readsNeededValue(const Expr &Sync, const utils::LoopContext &Loop,
                        ASTContext &Ctx);
  /// Reports the syncs of one loop: a warning at the first, notes at the
  /// others.
  void report(llvm::ArrayRef<Found> InLoop, ASTContext &Ctx);
  void noteChain(const utils::LoopContext &Loop);

  /// `ReportNecessary`: also report reads whose value the iteration needs.
  const bool ReportNecessary;
  std::unique_ptr<utils::CallSites> Calls;
  std::unique_ptr<utils::ValueOrigins> Origins;
  std::vector<Found> Pending;
  ASTContext *Analysed = nullptr;
  /// Locations found: a template's instantiations, or a helper that two
  /// loops call, count once.
  llvm::DenseSet<unsigned> Seen;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_SYNCINLOOPCHECK_H
