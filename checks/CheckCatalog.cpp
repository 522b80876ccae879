//===--- CheckCatalog.cpp - What each torch-tidy rule is about ------------===//

#include "CheckCatalog.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::torch_tidy {

static const CheckInfo Catalog[] = {
#define TORCH_TIDY_CHECK(Name, Class, Summary, Description)                    \
  {Name, Summary, Description},
#include "Checks.def"
};

llvm::ArrayRef<CheckInfo> checkCatalog() { return Catalog; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Info : Catalog)
    if (Info.Name == Name)
      return &Info;
  return nullptr;
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
