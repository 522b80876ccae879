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
#include <string>

namespace clang::tidy::torch_tidy {

struct CheckInfo {
  llvm::StringRef Name;
  /// One sentence: what is wrong.
  llvm::StringRef Summary;
  /// Why LibTorch behaves so and what to do instead.
  llvm::StringRef Description;
};

llvm::ArrayRef<CheckInfo> checkCatalog();
const CheckInfo *findCheck(llvm::StringRef Name);
/// The checks enabled when the configuration names none: every group of
/// torch-tidy's rules and nothing else, e.g. "-*,device-*".
std::string defaultChecks();

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_CHECKCATALOG_H
