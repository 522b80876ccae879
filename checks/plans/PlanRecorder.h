//===--- PlanRecorder.h - Where the checks' replay plans go -----*- C++ -*-===//
//
// A check records the replay plan of each finding beside its diagnostic. The
// plans go to the recorder that the driver installs for the translation unit
// it analyses; with none installed (the plugin under stock clang-tidy), they
// are not recorded at all.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_PLANS_PLANRECORDER_H
#define TORCH_TIDY_CHECKS_PLANS_PLANRECORDER_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace clang::tidy::torch_tidy::plans {

/// The plan of the finding that \p Check reports at \p Offset of \p File.
struct RecordedPlan {
  std::string File; ///< Absolute, without `.` or `..`.
  unsigned Offset = 0;
  std::string Check;
  /// The plan, without its id and location; none when the finding's
  /// operation has no faithful replay in the plan format.
  std::optional<nlohmann::json> Plan;
};

/// Receives the plans the checks record.
class PlanRecorder {
public:
  virtual ~PlanRecorder();
  virtual void record(RecordedPlan Plan) = 0;
};

/// Installs \p Recorder for the translation units analysed on the calling
/// thread (clang-tidy runs each one on the thread that asks for it); null
/// installs none. Returns the recorder it replaces.
PlanRecorder *setPlanRecorder(PlanRecorder *Recorder);

/// Records \p Plan for the diagnostic that \p Check reports at \p Loc.
void recordPlan(llvm::StringRef Check, SourceLocation Loc,
                const SourceManager &SM, nlohmann::json Plan);

/// Records that the diagnostic \p Check reports at \p Loc is about an
/// operation no plan replays faithfully: it gets no plan, and its verdict
/// says so.
void recordNotReplayable(llvm::StringRef Check, SourceLocation Loc,
                         const SourceManager &SM);

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_PLANRECORDER_H
