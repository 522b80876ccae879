//===--- UserCodeScope.h - Analyse only what the user owns ------*- C++ -*-===//
//
// The matchers and the checks' own traversals visit only the declarations of
// the main file and of the headers whose diagnostics would be shown
// (--header-filter, --exclude-header-filter, --system-headers), but for
// LibTorch's own declarations: the way clangd limits its tidy checks to the
// main file. System and third-party headers are parsed, so the types and
// calls they declare are known, but never walked: a LibTorch translation unit
// has ~200,000 declarations in its headers and a handful in the file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_USERCODESCOPE_H
#define TORCH_TIDY_TOOL_USERCODESCOPE_H

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include <memory>

namespace torch_tidy {

/// Wraps \p Checks (clang-tidy's consumer) so that, when the translation unit
/// is complete, its traversal scope is the declarations that \p Options show
/// diagnostics for. \p Parsed is set once the translation unit was parsed.
std::unique_ptr<clang::ASTConsumer>
limitToUserCode(std::unique_ptr<clang::ASTConsumer> Checks,
                const clang::tidy::ClangTidyOptions &Options, bool &Parsed);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_USERCODESCOPE_H
