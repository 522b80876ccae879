//===--- FindingStream.cpp - Findings printed as each file is done --------===//

#include "FindingStream.h"

namespace torch_tidy {

std::vector<Finding>
FindingStream::unprinted(const std::vector<Finding> &Findings) const {
  std::vector<Finding> Left;
  for (const Finding &F : Findings)
    if (!Printed.count(identity(F)))
      Left.push_back(F);
  return Left;
}

void FindingStream::print(const std::vector<Finding> &Findings) {
  std::vector<Finding> Left = unprinted(Findings);
  if (Left.empty())
    return;
  for (const Finding &F : Left)
    Printed.insert(identity(F));
  OS << Render(Left);
  OS.flush();
}

} // namespace torch_tidy
