//===--- Merge.h - One report from the reports of shards ------------------===//
//
// `torch-tidy merge A.sarif B.sarif ... -o ALL.sarif` joins the reports of
// --shard runs (all SARIF, or all JSON) into the report one run would have
// written: one SARIF run with one rules table, each result's ruleIndex into
// it, one invocation, the results sorted and a finding reported by two
// shards (a header) once.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_MERGE_H
#define TORCH_TIDY_TOOL_MERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

struct Report {
  std::string Name; // for errors: the file it was read from
  std::string Text;
};

/// The merged report, in the format of the reports; a one-line error naming
/// the report that cannot be merged.
llvm::Expected<std::string> mergeReports(const std::vector<Report> &Reports);

/// `torch-tidy merge [-o FILE] REPORT...`, given the arguments after
/// "merge"; returns the exit status.
int runMerge(llvm::ArrayRef<const char *> Args);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_MERGE_H
