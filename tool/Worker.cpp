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

std::vector<std::string> stringsOf(const nlohmann::json &List) {
  std::vector<std::string> Out;
  if (List.is_array())
    for (const nlohmann::json &Item : List)
      if (Item.is_string())
        Out.push_back(Item.get<std::string>());
  return Out;
}

} // namespace

WorkerRun WorkerLauncher::launch(std::vector<std::string> WorkerArguments,
                                 bool Analysing) const {
  WorkerRun Run;
  TemporaryFile Output("json"), Inputs("json"), Errors("txt");
  if (Output.Path.empty() || Inputs.Path.empty() || Errors.Path.empty()) {
    Run.Problem = "no temporary file for the worker";
    return Run;
  }
  // The worker's flags go first: after the user's '--' they would be
  // compiler flags.
  std::vector<std::string> Args = {Executable};
  Args.insert(Args.end(), WorkerArguments.begin(), WorkerArguments.end());
  Args.push_back("--worker-inputs=" + Inputs.Path.str().str());
  if (Analysing)
    Args.push_back("--worker-output=" + Output.Path.str().str());
  Args.insert(Args.end(), Arguments.begin(), Arguments.end());
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(Errors.Path)};
  int Status = llvm::sys::ExecuteAndWait(Executable, ArgRefs, std::nullopt,
                                         Redirects, 0, 0, &Run.Problem);
  Run.Stderr = Errors.read();
  if (Status == 0) {
    nlohmann::json Read = nlohmann::json::parse(Inputs.read(), nullptr, false);
    if (Read.is_object()) {
      Run.Succeeded = true;
      Run.Read = stringsOf(Read["read"]);
      Run.ReadThroughPch = stringsOf(Read["readThroughPch"]);
      Run.UsedSharedPch = Read.value("usedSharedPch", false);
      if (Analysing)
        Run.Output = Output.read();
      return Run;
    }
    Run.Problem = "the worker did not say which files it read";
  } else if (Status > 0) {
    // The worker stopped on an error of its own: its first line says which.
    llvm::StringRef FirstLine = llvm::StringRef(Run.Stderr).split('\n').first;
    Run.Problem = "exit status " + std::to_string(Status) +
                  (FirstLine.empty() ? "" : ": " + FirstLine.str());
  }
  return Run;
}

WorkerRun WorkerLauncher::analyze(const std::string &File,
                                  const std::string &SharedPch) const {
  std::vector<std::string> Args = {"--worker-file=" + File};
  if (!SharedPch.empty())
    Args.push_back("--worker-pch=" + SharedPch);
  return launch(std::move(Args), /*Analysing=*/true);
}

WorkerRun WorkerLauncher::precompile(const std::string &File,
                                     const std::string &PrefixHeader,
                                     const std::string &Output) const {
  return launch({"--worker-file=" + File, "--worker-build-pch=" + PrefixHeader,
                 "--worker-output=" + Output},
                /*Analysing=*/false);
}

std::vector<Finding> readWorkerOutput(const std::string &File,
                                      llvm::StringRef Output,
                                      SourceIndex &Index,
                                      CrossFileFacts &CrossFile) {
  auto Unreadable = [&](std::string Why) {
    return std::vector<Finding>{
        crashFinding(File, "unreadable worker output: " + Why, "", Index)};
  };
  nlohmann::json Wire = nlohmann::json::parse(Output, nullptr, false);
  if (!Wire.is_object())
    return Unreadable("not a JSON object");
  auto Findings = findingsFromWire(Wire.value("findings", nlohmann::json()));
  if (!Findings)
    return Unreadable(llvm::toString(Findings.takeError()));
  auto Facts = crossFileFromWire(Wire.value("crossFile", nlohmann::json()));
  if (!Facts)
    return Unreadable(llvm::toString(Facts.takeError()));
  CrossFile = std::move(*Facts);
  return std::move(*Findings);
}

llvm::Error writeWorkerOutput(const std::string &Path,
                              const std::vector<Finding> &Findings,
                              const CrossFileFacts &CrossFile) {
  nlohmann::json Wire = {{"findings", findingsToWire(Findings)},
                         {"crossFile", crossFileToWire(CrossFile)}};
  return writeFileAtomically(Path, Wire.dump());
}

llvm::Error writeWorkerInputs(const std::string &Path,
                              const std::vector<std::string> &Read,
                              const std::vector<std::string> &ReadThroughPch,
                              bool UsedSharedPch) {
  nlohmann::json Inputs = {{"read", Read},
                           {"readThroughPch", ReadThroughPch},
                           {"usedSharedPch", UsedSharedPch}};
  return writeFileAtomically(Path, Inputs.dump());
}

} // namespace torch_tidy
