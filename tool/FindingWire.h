//===--- FindingWire.h - Findings as JSON between processes ---------------===//
//
// A worker process analyses one file and hands its findings to the driver in
// this form. Unlike the user-facing JSON output it keeps every field (byte
// offsets, ranges, note fix-its, the replay plan), so that a finding read back
// is the finding that was written.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_FINDINGWIRE_H
#define TORCH_TIDY_TOOL_FINDINGWIRE_H

#include "Finding.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <vector>

namespace torch_tidy {

nlohmann::json spanToWire(const Span &S);
/// Throws nlohmann::json's exceptions on a malformed span.
Span spanFromWire(const nlohmann::json &J);

nlohmann::json findingsToWire(const std::vector<Finding> &Findings);

/// The findings of \p Wire, or an error naming what is malformed.
llvm::Expected<std::vector<Finding>> findingsFromWire(const nlohmann::json &Wire);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FINDINGWIRE_H
