//===--- PlanRecorder.cpp - Where the checks' replay plans go -------------===//

#include "PlanRecorder.h"
#include "utils/RecordedPlace.h"

namespace clang::tidy::torch_tidy::plans {

PlanRecorder::~PlanRecorder() = default;

static PlanRecorder *&installedRecorder() {
  thread_local PlanRecorder *Recorder = nullptr;
  return Recorder;
}

PlanRecorder *setPlanRecorder(PlanRecorder *Recorder) {
  return std::exchange(installedRecorder(), Recorder);
}

static void record(llvm::StringRef Check, SourceLocation Loc,
                   const SourceManager &SM,
                   std::optional<nlohmann::json> Plan) {
  PlanRecorder *Recorder = installedRecorder();
  if (!Recorder)
    return;
  if (auto At = utils::recordedPlace(Loc, SM))
    Recorder->record({At->File, At->Offset, Check.str(), std::move(Plan)});
}

void recordPlan(llvm::StringRef Check, SourceLocation Loc,
                const SourceManager &SM, nlohmann::json Plan) {
  record(Check, Loc, SM, std::move(Plan));
}

void recordNotReplayable(llvm::StringRef Check, SourceLocation Loc,
                         const SourceManager &SM) {
  record(Check, Loc, SM, std::nullopt);
}

} // namespace clang::tidy::torch_tidy::plans
