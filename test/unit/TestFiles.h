//===--- TestFiles.h - Temporary directories and files for unit tests -----===//

#ifndef TORCH_TIDY_TEST_UNIT_TESTFILES_H
#define TORCH_TIDY_TEST_UNIT_TESTFILES_H

#include "Finding.h"
#include <string>
#include <vector>

namespace torch_tidy::test {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when the object goes away.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return Path; }
  /// \p Relative joined to the directory.
  std::string file(const std::string &Relative) const;
  /// Writes \p Contents to \p Relative (creating parent directories) and
  /// returns the absolute path.
  std::string write(const std::string &Relative,
                    const std::string &Contents) const;
  /// The names of the entries of the directory (or of \p Relative in it).
  std::vector<std::string> list(const std::string &Relative = "") const;

private:
  std::string Path;
};

std::string readFile(const std::string &Path);

/// The byte offset of the \p Occurrence-th (0-based) \p Needle in \p Text.
unsigned offsetOf(const std::string &Text, const std::string &Needle,
                  unsigned Occurrence = 0);

/// A span of \p File located with a fresh SourceIndex.
Span spanAt(const std::string &File, unsigned Offset, unsigned Length = 0);

} // namespace torch_tidy::test

#endif
