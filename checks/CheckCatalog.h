//===--- CheckCatalog.h - What each torch-tidy rule is about --------------===//
//
// One entry per rule of Checks.def: the descriptions that SARIF's `rules[]`
// and the docs index show. The doc page docs/checks/<name>.md holds the rest.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_CHECKCATALOG_H
#define TORCH_TIDY_CHECKS_CHECKCATALOG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::torch_tidy {

/// What a finding of the rule means (Checks.def says how each is chosen).
enum class Severity { Bug, Hazard, Performance };
inline constexpr Severity AllSeverities[] = {Severity::Bug, Severity::Hazard,
                                             Severity::Performance};
/// "bug", "hazard", "performance".
llvm::StringRef severityName(Severity S);
std::optional<Severity> parseSeverity(llvm::StringRef Name);

/// CodeQL's precision of a rule: the share of its findings that are true.
enum class Precision { Medium, High, VeryHigh };
/// As CodeQL writes it: "medium", "high", "very-high".
llvm::StringRef precisionName(Precision P);

struct CheckInfo {
  llvm::StringRef Name;
  Severity Level;
  Precision Estimate;
  /// One sentence: what is wrong.
  llvm::StringRef Summary;
  /// Why LibTorch behaves so and what to do instead.
  llvm::StringRef Description;
};

llvm::ArrayRef<CheckInfo> checkCatalog();
const CheckInfo *findCheck(llvm::StringRef Name);
/// The severity of torch-tidy's rule \p Check; none for other names (the
/// compiler's diagnostics, a crash).
std::optional<Severity> severityOf(llvm::StringRef Check);
/// The checks enabled when the configuration names none: every group of
/// torch-tidy's rules and nothing else, e.g. "-*,device-*".
std::string defaultChecks();

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_CHECKCATALOG_H
