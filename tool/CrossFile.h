//===--- CrossFile.h - Findings that another file decides -----------------===//
//
// A file's analysis sets apart the findings that hold only if another file
// of the run supplies a fact (a helper defined here called there with a GPU
// tensor, a module defined here moved there), and records the facts it
// supplies. Both travel with the file's findings (the worker's output, the
// result cache); once every file is analysed, the solver (CrossFileSolver.h)
// keeps the findings whose fact another file supplies, with a note where it
// does.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CROSSFILE_H
#define TORCH_TIDY_TOOL_CROSSFILE_H

#include "Finding.h"
#include "flow/CrossFileRecorder.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace torch_tidy {

using clang::tidy::torch_tidy::flow::Need;

struct ConditionalFinding {
  Finding F;
  Need Condition;
};

struct Supply {
  Need Fact;
  Span Where;
  std::string Note;
  /// The fact holds only if another file supplies this one (a link of a
  /// chain); none: it holds.
  std::optional<Need> Condition;
};

/// What one analysed file (its translation unit, \p Unit) leaves for the
/// others.
struct CrossFileFacts {
  std::string Unit;
  std::vector<ConditionalFinding> Conditional;
  std::vector<Supply> Supplies;

  bool empty() const { return Conditional.empty() && Supplies.empty(); }
};

/// The checks' cross-file recorder on the constructing thread for as long
/// as it lives, while one file is analysed.
class CrossFileCollector : public clang::tidy::torch_tidy::flow::CrossFileRecorder {
public:
  CrossFileCollector();
  ~CrossFileCollector() override;
  CrossFileCollector(const CrossFileCollector &) = delete;
  CrossFileCollector &operator=(const CrossFileCollector &) = delete;

  void conditional(llvm::StringRef Check,
                   clang::tidy::torch_tidy::utils::RecordedPlace At,
                   Need Condition) override;
  void supply(Need Fact, clang::tidy::torch_tidy::utils::RecordedPlace At,
              std::string Note, std::optional<Need> Condition) override;

  /// Moves the findings recorded as conditional out of \p Findings, and
  /// returns them with the facts \p Unit supplies.
  CrossFileFacts take(std::vector<Finding> &Findings, const std::string &Unit,
                      SourceIndex &Index);

private:
  struct Recorded {
    std::string Check;
    clang::tidy::torch_tidy::utils::RecordedPlace At;
    Need Condition;
  };
  std::vector<Recorded> Conditions;
  std::vector<Supply> Supplies;
  clang::tidy::torch_tidy::flow::CrossFileRecorder *Previous;
};

/// The version of the wire below: worker outputs and cache entries of
/// another version are not read as this one.
inline constexpr int CrossFileWireVersion = 2;

nlohmann::json crossFileToWire(const CrossFileFacts &Facts);
llvm::Expected<CrossFileFacts> crossFileFromWire(const nlohmann::json &Wire);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CROSSFILE_H
