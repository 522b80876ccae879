//===--- CodeActions.h - Quick fixes for the findings of a file -*- C++ -*-===//
//
// For each finding the editor asks about: its fix-it (the preferred quick
// fix), the fix-its of its notes, and "suppress with NOLINTNEXTLINE(rule)",
// a comment on the line above that clang-tidy's engine honours.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_CODEACTIONS_H
#define TORCH_TIDY_TOOL_LSP_CODEACTIONS_H

#include "Diagnostics.h"
#include <cstdint>

namespace torch_tidy::lsp {

/// The document the actions edit, as the findings were computed on it.
struct ActionTarget {
  std::string File, Uri;
  int64_t Version = 0;
  PositionEncoding Encoding = PositionEncoding::Utf16;
  /// The client takes versioned `documentChanges` (else `changes`).
  bool DocumentChanges = false;
};

/// The `CodeAction[]` answering a `textDocument/codeAction` request with
/// \p Params, for the findings \p Shown on \p Target.
nlohmann::json codeActions(const std::vector<ShownFinding> &Shown,
                           SourceTexts &Texts, const ActionTarget &Target,
                           const nlohmann::json &Params);

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_CODEACTIONS_H
