//===--- JsonFields.h - Fields shared by the JSON and SARIF writers -------===//

#ifndef TORCH_TIDY_TOOL_JSONFIELDS_H
#define TORCH_TIDY_TOOL_JSONFIELDS_H

#include "Finding.h"
#include <nlohmann/json.hpp>

namespace torch_tidy {

/// "error" for compiler errors and warnings as errors, "note" for findings
/// the probe could not reproduce, else "warning".
inline const char *severity(const Finding &F) {
  if (F.Downgraded)
    return "note";
  return F.IsError ? "error" : "warning";
}

/// The probe's verdict, as the probe writes it (runtime/Verdict.h).
inline nlohmann::json verdictJson(const plan::Verdict &V) {
  return plan::toJson(V);
}

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_JSONFIELDS_H
