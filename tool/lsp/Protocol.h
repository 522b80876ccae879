//===--- Protocol.h - LSP's positions, URIs and error codes -----*- C++ -*-===//
//
// The pieces of the Language Server Protocol (3.17) that need more than a
// JSON object: positions counted in the client's code units, file URIs, and
// the JSON-RPC error codes.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_PROTOCOL_H
#define TORCH_TIDY_TOOL_LSP_PROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

/// JSON-RPC's and LSP's error codes.
namespace error_code {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
inline constexpr int ServerNotInitialized = -32002;
inline constexpr int RequestCancelled = -32800;
} // namespace error_code

/// What a position's `character` counts: UTF-16 code units unless the
/// client and the server agree on another (LSP 3.17 `positionEncoding`).
enum class PositionEncoding { Utf8, Utf16, Utf32 };

llvm::StringRef encodingName(PositionEncoding Encoding);

/// The encoding to use, from the client's `general.positionEncodings` (or
/// clangd's `offsetEncoding` extension): UTF-8 when offered, as bytes are
/// what the analysis counts; else UTF-16, LSP's default.
PositionEncoding chooseEncoding(const nlohmann::json &ClientCapabilities);

/// Converts between byte offsets of a text and LSP positions. Holds a
/// reference to the text, which must outlive it.
class LineTable {
public:
  explicit LineTable(llvm::StringRef Text);

  nlohmann::json position(unsigned Offset, PositionEncoding Encoding) const;
  nlohmann::json range(unsigned Offset, unsigned Length,
                       PositionEncoding Encoding) const;
  /// The byte offset of an LSP position; a character past the end of its
  /// line means the line's end, a line past the last the text's end (as
  /// LSP says). None for a malformed position.
  std::optional<unsigned> offset(const nlohmann::json &Position,
                                 PositionEncoding Encoding) const;

  /// The text of 0-based line \p Line, without its line break.
  llvm::StringRef line(unsigned Line) const;
  unsigned lineOf(unsigned Offset) const;
  unsigned lineStart(unsigned Line) const { return Starts[Line]; }

private:
  llvm::StringRef Text;
  std::vector<unsigned> Starts;
};

/// Applies one `TextDocumentContentChangeEvent` (a whole text, or a range
/// and its replacement) to \p Text.
llvm::Error applyChange(std::string &Text, const nlohmann::json &Change,
                        PositionEncoding Encoding);

/// The absolute path of a `file:` URI; none for other schemes.
std::optional<std::string> pathFromUri(llvm::StringRef Uri);
std::string uriFromPath(llvm::StringRef Path);

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_PROTOCOL_H
