//===--- Diagnostics.h - Findings as LSP diagnostics ------------*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_LSP_DIAGNOSTICS_H
#define TORCH_TIDY_TOOL_LSP_DIAGNOSTICS_H

#include "Finding.h"
#include "Protocol.h"
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

/// The texts that positions are counted in: the editor's, for the documents
/// open when the file was analysed, else the files on disk (read once).
class SourceTexts {
public:
  explicit SourceTexts(std::map<std::string, std::string> Open)
      : Texts(std::move(Open)) {}

  /// The lines of \p File; null when it cannot be read.
  const LineTable *lines(const std::string &File);
  /// The bytes of \p Length at \p Offset of \p File (empty if unreadable).
  std::string slice(const std::string &File, unsigned Offset, unsigned Length);

private:
  std::mutex Lock;
  std::map<std::string, std::string> Texts;
  std::map<std::string, std::unique_ptr<LineTable>> Tables;
};

/// A finding as shown on the file it was found in.
struct ShownFinding {
  Finding Found;
  nlohmann::json Diagnostic;
};

/// The LSP diagnostics of \p Findings, found analysing \p File: its own, and
/// the compiler errors of the headers it includes, shown where it includes
/// them (or where their notes enter it).
std::vector<ShownFinding> showFindings(const std::vector<Finding> &Findings,
                                       const std::string &File,
                                       SourceTexts &Texts,
                                       PositionEncoding Encoding);

/// The range of \p S's location, widened to the token there.
nlohmann::json tokenRange(const Span &S, SourceTexts &Texts,
                          PositionEncoding Encoding);

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_DIAGNOSTICS_H
