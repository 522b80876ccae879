//===--- RankUnawareDeviceCheck.h - device-rank-unaware -------------------===//

#ifndef TORCH_TIDY_CHECKS_RANKUNAWAREDEVICECHECK_H
#define TORCH_TIDY_CHECKS_RANKUNAWAREDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include <vector>

namespace clang::tidy::torch_tidy {

/// Finds, in a program that runs one process per GPU (a rank read from the
/// launcher's environment or command line, MPI, a c10d process group or
/// store), a CUDA device chosen without the rank: `torch::kCUDA`, "cuda",
/// "cuda:0", `torch::Device(torch::kCUDA)`, `.cuda()`. Every process then
/// works on the same GPU. Quiet when the program sets the current device
/// (for devices without an index) or CUDA_VISIBLE_DEVICES.
class RankUnawareDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A CUDA device chosen without the rank.
  struct Choice {
    /// The token that names CUDA: `torch::kCUDA`, "cuda:0", `.cuda()`.
    const Expr *Naming;
    /// The literal index, when one is written (`Device(kCUDA, 0)`).
    const Expr *Index = nullptr;
    /// The device's construction, when it is written with parentheses:
    /// `torch::Device(torch::kCUDA)` (a cast or a temporary object),
    /// `torch::Device d(torch::kCUDA)` (a construction).
    const Expr *Written = nullptr;
    unsigned IndexValue = 0;
    /// A branch of `?:`: a fix-it could make the branches' types differ.
    bool OneOfTwo = false;
  };
  static std::optional<Choice> chosenDevice(const Expr &Naming,
                                            ASTContext &Ctx);
  void report(const Choice &Device, ASTContext &Ctx);

  std::vector<Choice> Choices;
  /// Where the program shows one process per GPU, and how.
  const Expr *Evidence = nullptr;
  std::string EvidenceText;
  bool SetsCurrentDevice = false;
  bool SetsVisibleDevices = false;
  ASTContext *Context = nullptr;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_RANKUNAWAREDEVICECHECK_H
