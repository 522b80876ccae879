//===--- SharedPrefixPlan.h - Which files share which headers ---*- C++ -*-===//
//
// Files whose compile commands agree (but for the file) and whose leading
// includes (LeadingIncludes.h) start alike can be parsed from one
// precompiled header of what they share. Each group of agreeing commands gets
// the longest shared start that the most of its files have; the files left
// get another, while two or more share one.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_SHAREDPREFIXPLAN_H
#define TORCH_TIDY_TOOL_SHAREDPREFIXPLAN_H

#include <string>
#include <vector>

namespace torch_tidy {

struct PrefixCandidate {
  std::string File;
  /// What the compile command does but for the file: only files whose keys
  /// are equal may share a precompiled header.
  std::string CommandKey;
  std::vector<std::string> LeadingIncludes;
};

struct SharedPrefix {
  std::string CommandKey;
  /// The includes, as written, that the precompiled header is made of.
  std::vector<std::string> Includes;
  /// The files that start with them, in the order of the candidates.
  std::vector<std::string> Files;
};

/// The prefixes shared by at least \p MinFiles files. A file is in one at most.
std::vector<SharedPrefix>
planSharedPrefixes(const std::vector<PrefixCandidate> &Candidates,
                   size_t MinFiles = 2);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SHAREDPREFIXPLAN_H
