//===--- FindingStream.h - Findings printed as each file is done -*- C++ -*-===//
//
// In a CI log or a pipe, a run that prints nothing until its last file looks
// hung. The formats that can (text, JSON Lines, GitHub's annotations) print
// each file's findings as soon as the file is done, and at the end only what
// was not printed yet: the findings that cross-file resolution adds. Formats
// that need the whole run (a JSON array, SARIF) are written at the end.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_FINDINGSTREAM_H
#define TORCH_TIDY_TOOL_FINDINGSTREAM_H

#include "Finding.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace torch_tidy {

class FindingStream {
public:
  using Renderer = std::function<std::string(const std::vector<Finding> &)>;

  FindingStream(llvm::raw_ostream &OS, Renderer Render)
      : OS(OS), Render(std::move(Render)) {}

  /// Prints those of \p Findings not printed yet, and flushes.
  void print(const std::vector<Finding> &Findings);

  /// Those of \p Findings not printed yet, in their order.
  std::vector<Finding> unprinted(const std::vector<Finding> &Findings) const;

private:
  /// What sortAndDeduplicate() tells apart.
  using Identity = std::tuple<std::string, unsigned, std::string, std::string>;
  static Identity identity(const Finding &F) {
    return {F.Where.File, F.Where.Offset, F.Check, F.Message};
  }

  llvm::raw_ostream &OS;
  Renderer Render;
  std::set<Identity> Printed;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FINDINGSTREAM_H
