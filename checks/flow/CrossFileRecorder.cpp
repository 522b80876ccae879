//===--- CrossFileRecorder.cpp - Facts that cross translation units -------===//

#include "CrossFileRecorder.h"

namespace clang::tidy::torch_tidy::flow {

CrossFileRecorder::~CrossFileRecorder() = default;

static CrossFileRecorder *&installed() {
  thread_local CrossFileRecorder *Recorder = nullptr;
  return Recorder;
}

CrossFileRecorder *setCrossFileRecorder(CrossFileRecorder *Recorder) {
  return std::exchange(installed(), Recorder);
}

CrossFileRecorder *crossFileRecorder() { return installed(); }

} // namespace clang::tidy::torch_tidy::flow
