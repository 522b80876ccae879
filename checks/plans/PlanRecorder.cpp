//===--- PlanRecorder.cpp - Where the checks' replay plans go -------------===//

#include "PlanRecorder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
  SourceLocation Spelling = SM.getFileLoc(Loc);
  auto File = SM.getFileEntryRefForID(SM.getFileID(Spelling));
  if (!File)
    return;
  llvm::SmallString<256> Path(File->getName());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  Recorder->record({std::string(Path), SM.getFileOffset(Spelling), Check.str(),
                    std::move(Plan)});
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
