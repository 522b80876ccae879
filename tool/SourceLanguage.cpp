//===--- SourceLanguage.cpp - Which files are C, C++ or CUDA --------------===//

#include "SourceLanguage.h"
#include "clang/Driver/Types.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

bool isCFamilySource(llvm::StringRef Path) {
  namespace types = clang::driver::types;
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  if (Extension.empty())
    return false;
  types::ID Type = types::lookupTypeForExtension(Extension.drop_front());
  return Type != types::TY_INVALID && types::isDerivedFromC(Type) &&
         !types::isObjC(Type) && !types::isOpenCL(Type);
}

} // namespace torch_tidy
