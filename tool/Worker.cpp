//===--- Worker.cpp - Each file analysed in a process of its own ----------===//

#include "Worker.h"
#include "CrashReport.h"
#include "FindingWire.h"
#include "FixApplier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace torch_tidy {

namespace {

/// A temporary file removed when it goes out of scope.
struct TemporaryFile {
  llvm::SmallString<128> Path;
  explicit TemporaryFile(llvm::StringRef Suffix) {
    if (llvm::sys::fs::createTemporaryFile("torch-tidy-worker", Suffix, Path))
      Path.clear();
  }
  ~TemporaryFile() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
  std::string read() const {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : std::string();
  }
};

} // namespace

std::vector<Finding> WorkerLauncher::analyze(const std::string &File,
                                             SourceIndex &Index,
                                             CrossFileFacts &CrossFile) const {
  TemporaryFile Output("json"), Errors("txt");
  if (Output.Path.empty() || Errors.Path.empty())
    return {crashFinding(File, "no temporary file for the worker", "", Index)};
  // The worker's flags go first: after the user's '--' they would be
  // compiler flags.
  std::vector<std::string> Args = {Executable, "--worker-file=" + File,
                                   "--worker-output=" + Output.Path.str().str()};
  Args.insert(Args.end(), Arguments.begin(), Arguments.end());
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(Errors.Path)};
  std::string Problem;
  int Status = llvm::sys::ExecuteAndWait(Executable, ArgRefs, std::nullopt,
                                         Redirects, 0, 0, &Problem);
  std::string Stderr = Errors.read();
  if (Status == 0) {
    std::string Text = Output.read();
    nlohmann::json Wire = nlohmann::json::parse(Text, nullptr, false);
    if (!Wire.is_object())
      Problem = "unreadable worker output: not a JSON object";
    else if (auto Findings = findingsFromWire(Wire.value("findings", nlohmann::json())); !Findings)
      Problem = "unreadable worker output: " + llvm::toString(Findings.takeError());
    else if (auto Facts = crossFileFromWire(Wire.value("crossFile", nlohmann::json())); !Facts)
      Problem = "unreadable worker output: " + llvm::toString(Facts.takeError());
    else {
      CrossFile = std::move(*Facts);
      return std::move(*Findings);
    }
  } else if (Status > 0) {
    // The worker stopped on an error of its own: its first line says which.
    llvm::StringRef FirstLine = llvm::StringRef(Stderr).split('\n').first;
    Problem = "exit status " + std::to_string(Status) +
              (FirstLine.empty() ? "" : ": " + FirstLine.str());
  }
  return {crashFinding(File, Problem, Stderr, Index)};
}

llvm::Error writeWorkerOutput(const std::string &Path,
                              const std::vector<Finding> &Findings,
                              const CrossFileFacts &CrossFile) {
  nlohmann::json Wire = {{"findings", findingsToWire(Findings)},
                         {"crossFile", crossFileToWire(CrossFile)}};
  return writeFileAtomically(Path, Wire.dump());
}

} // namespace torch_tidy
