//===--- Plan.h - Replay plan schema and validator --------------*- C++ -*-===//
//
// A replay plan is the contract between the analyzer and the probe (see
// runtime/PLAN_FORMAT.md). This header knows the schema only: it does not
// depend on LibTorch, so anything that writes or checks plans can use it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_PLAN_H
#define TORCH_TIDY_RUNTIME_PLAN_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace torch_tidy::plan {

inline constexpr const char *kFormatName = "torch-tidy-plan";
inline constexpr int kFormatVersion = 1;
/// Caps that keep a replay small: per tensor, per plan, per step.
inline constexpr int64_t kMaxElements = int64_t{1} << 24;
inline constexpr int64_t kMaxPlanElements = int64_t{1} << 26;
inline constexpr int64_t kMaxDims = 8;
inline constexpr size_t kMaxSteps = 256;
inline constexpr int64_t kMaxRepeat = 1000000;

/// The first problem found in a plan: where (a JSON pointer) and what.
struct ValidationError {
  std::string Path;
  std::string Problem;
  /// One line: "<path>: <problem>".
  std::string str() const;
};

/// Returns the first problem in \p Plan, or std::nullopt when it is valid.
std::optional<ValidationError> validate(const nlohmann::json &Plan);

/// A plan file that cannot be read, parsed or validated.
class PlanError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads, parses and validates a plan file; throws PlanError with a one-line
/// message ("<file>: <problem>") otherwise.
nlohmann::json loadPlanFile(const std::string &FileName);

/// "accel", "cpu" or a lower-case LibTorch device string such as "cuda:1".
bool isValidDeviceSpec(const std::string &Spec);

/// Observable kinds (expect.kind).
namespace expect {
inline constexpr const char *DeviceMismatch = "device-mismatch";
inline constexpr const char *DeviceAfter = "device-after";
inline constexpr const char *GradUndefined = "grad-undefined";
inline constexpr const char *NonLeafRejected = "non-leaf-rejected";
inline constexpr const char *Timing = "timing";
inline constexpr const char *SyncCost = "sync-cost";
inline constexpr const char *ToCopies = "to-copies";
inline constexpr const char *HostPointerToDevice = "host-pointer-to-device";
} // namespace expect

} // namespace torch_tidy::plan

#endif // TORCH_TIDY_RUNTIME_PLAN_H
