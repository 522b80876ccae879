//===--- Fingerprint.h - GitHub code scanning's line hash -----------------===//
//
// GitHub matches a code scanning alert across commits by the result's
// partialFingerprints.primaryLocationLineHash. Its upload action computes it
// when a SARIF file lacks it (github/codeql-action, src/fingerprints.ts); an
// upload through the API or another tool does not. torch-tidy writes it with
// the same algorithm, so that every upload matches the same alerts:
//
//  - the file is read as UTF-8 into UTF-16 code units (a bad byte becomes
//    U+FFFD); spaces and tabs are skipped, "\r\n" and "\r" read as "\n", and
//    the end of the file is the unit 65535 followed by zeros;
//  - a line's hash is sum(c[i] * 37^(99 - i)) modulo 2^64 over the 100 units
//    that start at the line's first unit (running into the following lines);
//  - it is written in lower-case hexadecimal without leading zeros, then ':'
//    and how many lines of the file so far had that hash ("<hex>:<n>").
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_FINGERPRINT_H
#define TORCH_TIDY_TOOL_FINGERPRINT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// primaryLocationLineHash of each line of a file.
class LineHashes {
public:
  explicit LineHashes(llvm::StringRef Contents);

  /// The hash of 1-based \p Line; empty past the end of the file.
  std::string forLine(unsigned Line) const;

private:
  std::vector<std::string> Hashes; // [0] is line 1
};

/// \p Bytes as UTF-16 code units, as a WHATWG (and Node.js) UTF-8 decoder
/// reads them: each maximal invalid subsequence becomes one U+FFFD.
std::u16string decodeUtf8(llvm::StringRef Bytes);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FINGERPRINT_H
