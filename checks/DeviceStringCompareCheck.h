//===--- DeviceStringCompareCheck.h - device-string-compare ---------------===//

#ifndef TORCH_TIDY_CHECKS_DEVICESTRINGCOMPARECHECK_H
#define TORCH_TIDY_CHECKS_DEVICESTRINGCOMPARECHECK_H

#include "api/DeviceText.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "utils/ValueOrigins.h"
#include <memory>

namespace clang::tidy::torch_tidy {

/// Finds devices compared through their string form:
/// `t.device().str() == "cuda"`, `d.str() == "cuda:0"`,
/// `c10::DeviceTypeName(d.type()) == "cuda"`, `d.str().find("cuda")`, also
/// when the string reaches the comparison through a variable, a helper's
/// return value, a parameter or a field.
class DeviceStringCompareCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Where a compared string was printed from.
  struct Printed {
    api::DeviceText Text;
    /// The call that printed it.
    const Expr *Origin;
    /// Whether the comparison reads the call itself (no variable, return or
    /// parameter in between): only then is there a fix-it.
    bool Direct;
  };
  std::optional<Printed> printedDevice(const Expr &E, ASTContext &Ctx,
                                       unsigned Depth = 3);
  void report(const Expr &Comparison, const Expr &Compared,
              const StringLiteral &Literal, bool Negated, bool IsSearch,
              ASTContext &Ctx);

  std::unique_ptr<utils::CallSites> Calls;
  std::unique_ptr<utils::ValueOrigins> Origins;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_DEVICESTRINGCOMPARECHECK_H
