//===--- SharedPchBuild.h - Precompiling a shared prefix --------*- C++ -*-===//
//
// In a worker process: the precompiled header of the includes files share,
// built with the compile command of one of them (the others' agree but for
// the file), templates instantiated once there rather than in every file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_SHAREDPCHBUILD_H
#define TORCH_TIDY_TOOL_SHAREDPCHBUILD_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// Precompiles \p PrefixHeader into \p Output with \p File's compile command
/// (and \p Context's extra arguments). Returns the files it read. Fails on a
/// compiler error, or when a header of the prefix is not guarded against a
/// second inclusion (the files include it again after the precompiled
/// header: it must then be skipped, as it is without one).
llvm::Expected<std::vector<std::string>>
precompilePrefix(clang::tidy::ClangTidyContext &Context,
                 const clang::tooling::CompilationDatabase &Database,
                 const std::string &File, const std::string &PrefixHeader,
                 const std::string &Output);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SHAREDPCHBUILD_H
