//===--- CheckCatalog.cpp - What each torch-tidy rule is about ------------===//

#include "CheckCatalog.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

namespace clang::tidy::torch_tidy {

static const CheckInfo Catalog[] = {
#define TORCH_TIDY_CHECK(Name, Class, Severity_, Precision_, Summary,          \
                         Description)                                          \
  {Name, Severity::Severity_, Precision::Precision_, Summary, Description},
#include "Checks.def"
};

llvm::ArrayRef<CheckInfo> checkCatalog() { return Catalog; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Info : Catalog)
    if (Info.Name == Name)
      return &Info;
  return nullptr;
}

std::optional<Severity> severityOf(llvm::StringRef Check) {
  if (const CheckInfo *Info = findCheck(Check))
    return Info->Level;
  return std::nullopt;
}

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Bug:
    return "bug";
  case Severity::Hazard:
    return "hazard";
  case Severity::Performance:
    return "performance";
  }
  llvm_unreachable("a severity without a name");
}

std::optional<Severity> parseSeverity(llvm::StringRef Name) {
  for (Severity S : AllSeverities)
    if (severityName(S) == Name)
      return S;
  return std::nullopt;
}

llvm::StringRef precisionName(Precision P) {
  switch (P) {
  case Precision::Medium:
    return "medium";
  case Precision::High:
    return "high";
  case Precision::VeryHigh:
    return "very-high";
  }
  llvm_unreachable("a precision without a name");
}

std::string defaultChecks() {
  std::string Globs = "-*";
  llvm::SmallVector<llvm::StringRef, 4> Groups;
  for (const CheckInfo &Info : Catalog) {
    llvm::StringRef Group = Info.Name.split('-').first;
    if (!llvm::is_contained(Groups, Group)) {
      Groups.push_back(Group);
      Globs += "," + Group.str() + "-*";
    }
  }
  return Globs;
}

} // namespace clang::tidy::torch_tidy
