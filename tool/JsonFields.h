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

/// \p J as text. Findings carry bytes from source files and paths, which need
/// not be UTF-8 (a Latin-1 file name, a message quoting Latin-1 source): such
/// bytes are written as U+FFFD, where nlohmann's default would throw.
inline std::string dumpJson(const nlohmann::json &J, int Indent = 2) {
  return J.dump(Indent, ' ', /*ensure_ascii=*/false,
                nlohmann::json::error_handler_t::replace);
}

/// \p S with each byte that is not UTF-8 replaced by U+FFFD, as dumpJson
/// writes it.
inline std::string validUtf8(const std::string &S) {
  return nlohmann::json::parse(dumpJson(S, -1)).get<std::string>();
}

/// The probe's verdict, as the probe writes it (runtime/Verdict.h).
inline nlohmann::json verdictJson(const plan::Verdict &V) {
  return plan::toJson(V);
}

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_JSONFIELDS_H
