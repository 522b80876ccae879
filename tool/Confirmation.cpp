//===--- Confirmation.cpp - Replay plans out, verdicts in -----------------===//

#include "Confirmation.h"
#include "FixApplier.h"
#include "JsonFields.h"
#include "runtime/Verdict.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <tuple>

namespace torch_tidy {

static std::string relativeTo(const std::string &File,
                              const std::string &Root) {
  llvm::StringRef Path(File);
  std::string Prefix = Root.empty() || Root.back() == '/' ? Root : Root + "/";
  if (!Prefix.empty() && Path.starts_with(Prefix))
    return Path.drop_front(Prefix.size()).str();
  return File;
}

void namePlans(std::vector<Finding> &Findings, const std::string &SourceRoot) {
  for (Finding &F : Findings) {
    if (!F.Plan)
      continue;
    // The probe copies the id into its verdict as UTF-8: a file name that
    // is not (Latin-1) must not make the two differ.
    std::string File = validUtf8(relativeTo(F.Where.File, SourceRoot));
    (*F.Plan)["id"] = validUtf8(File + ":" + std::to_string(F.Where.Line) +
                                ":" + std::to_string(F.Where.Column) + ":" +
                                F.Check);
    (*F.Plan)["location"] = {{"file", File},
                             {"line", F.Where.Line},
                             {"column", F.Where.Column}};
  }
}

/// A file name for a plan id: path separators and colons become '_'. A name
/// component holds at most 255 bytes, so a long id (a deep path) keeps its
/// start and ends with a hash of the whole.
static std::string planFileName(const std::string &Id) {
  std::string Name = Id;
  for (char &C : Name)
    if (C == '/' || C == ':' || C == ' ')
      C = '_';
  if (Name.size() > 200)
    Name = Name.substr(0, 180) + "-" +
           llvm::utohexstr(llvm::xxh3_64bits(Id), /*LowerCase=*/true);
  return Name + ".json";
}

llvm::Error writePlans(const std::vector<Finding> &Findings,
                       const std::string &Dir) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create plan directory '%s': %s",
                                   Dir.c_str(), EC.message().c_str());
  for (const Finding &F : Findings) {
    if (!F.Plan)
      continue;
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path,
                            planFileName((*F.Plan)["id"].get<std::string>()));
    if (llvm::Error Err = writeFileAtomically(Path, dumpJson(*F.Plan) + "\n"))
      return Err;
  }
  return llvm::Error::success();
}

/// torch-tidy-probe: $TORCH_TIDY_PROBE, beside torch-tidy in the build tree,
/// or on PATH.
static llvm::Expected<std::string> findProbe(const char *Argv0) {
  if (const char *FromEnv = std::getenv("TORCH_TIDY_PROBE"))
    return std::string(FromEnv);
  std::string Self = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findProbe));
  for (const char *Relative : {"torch-tidy-probe", "../cuda_probe/torch-tidy-probe"}) {
    llvm::SmallString<256> Path(llvm::sys::path::parent_path(Self));
    llvm::sys::path::append(Path, Relative);
    if (llvm::sys::fs::can_execute(Path))
      return std::string(Path);
  }
  if (auto OnPath = llvm::sys::findProgramByName("torch-tidy-probe"))
    return *OnPath;
  return llvm::createStringError(
      std::errc::no_such_file_or_directory,
      "--confirm needs torch-tidy-probe (build with LibTorch, or set "
      "TORCH_TIDY_PROBE)");
}

llvm::Expected<std::string> runProbe(const std::vector<Finding> &Findings,
                                     const std::string &Backend,
                                     const char *Argv0) {
  llvm::SmallString<256> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("torch-tidy-plans", Dir))
    return llvm::createStringError(EC, "cannot create a temporary directory");
  std::string Verdicts = (Dir + "/verdicts.json").str();
  if (llvm::none_of(Findings, [](const Finding &F) { return F.Plan; })) {
    // Nothing to replay: no verdicts, and no need of the probe.
    if (llvm::Error Err = writeFileAtomically(
            Verdicts, plan::toJson(plan::VerdictsDocument()).dump(2) + "\n"))
      return std::move(Err);
    return Verdicts;
  }
  auto Probe = findProbe(Argv0);
  if (!Probe)
    return Probe.takeError();
  // Plans in a folder of their own, so the verdicts file is not read as one.
  std::string PlanDir = (Dir + "/plans").str();
  if (llvm::Error Err = writePlans(Findings, PlanDir))
    return std::move(Err);
  std::string BackendArg = "--backend=" + Backend;
  std::string OutputArg = "--output=" + Verdicts;
  std::vector<llvm::StringRef> Args = {*Probe, BackendArg, OutputArg, PlanDir};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Probe, Args, std::nullopt, {}, 0, 0,
                                         &Error);
  if (Status < 0 || !llvm::sys::fs::exists(Verdicts))
    return llvm::createStringError(std::errc::io_error,
                                   "torch-tidy-probe failed (exit %d)%s%s",
                                   Status, Error.empty() ? "" : ": ",
                                   Error.c_str());
  return Verdicts;
}

/// The verdict of a finding the probe had no plan for.
static plan::Verdict withoutPlan(const char *Reason) {
  plan::Verdict V;
  V.Outcome = plan::outcome::Inconclusive;
  V.Reason = Reason;
  return V;
}

llvm::Expected<plan::VerdictsDocument>
readVerdictsFile(const std::string &VerdictsFile) {
  auto Buffer = llvm::MemoryBuffer::getFile(VerdictsFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read verdicts '%s': %s",
                                   VerdictsFile.c_str(),
                                   Buffer.getError().message().c_str());
  nlohmann::json Document = nlohmann::json::parse(
      (*Buffer)->getBuffer().begin(), (*Buffer)->getBuffer().end(), nullptr,
      /*allow_exceptions=*/false);
  auto Parsed = plan::parseVerdicts(Document);
  if (auto *Error = std::get_if<plan::ValidationError>(&Parsed))
    return llvm::createStringError(
        std::errc::invalid_argument,
        "'%s' is not a torch-tidy verdicts file: %s", VerdictsFile.c_str(),
        Document.is_discarded() ? "malformed JSON" : Error->str().c_str());
  return std::get<plan::VerdictsDocument>(std::move(Parsed));
}

void mergeVerdicts(std::vector<Finding> &Findings,
                   const plan::VerdictsDocument &Verdicts, bool Strict) {
  std::map<std::string, plan::Verdict> ById;
  for (const plan::Verdict &V : Verdicts.Verdicts)
    if (!V.Id.empty()) {
      plan::Verdict &Kept = ById[V.Id] = V;
      // Where the probe read the plan (often a temporary file) says nothing
      // about the finding.
      Kept.File.clear();
    }
  std::vector<Finding> Kept;
  for (Finding &F : Findings) {
    if (F.Plan) {
      auto It = ById.find(F.Plan->value("id", ""));
      if (It != ById.end())
        F.Confirmation = It->second;
    } else if (F.OperationNotReplayable) {
      F.Confirmation = withoutPlan("operation not replayable");
    } else if (llvm::StringRef(F.Check).starts_with("device-")) {
      F.Confirmation = withoutPlan("no replay plan for this finding");
    }
    F.Downgraded = F.Confirmation &&
                   F.Confirmation->Outcome == plan::outcome::NotReproduced;
    if (F.Downgraded)
      F.IsWarningAsError = F.IsError = false;
    if (!(Strict && F.Downgraded))
      Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
}

llvm::Error mergeVerdicts(std::vector<Finding> &Findings,
                          const std::string &VerdictsFile, bool Strict) {
  auto Verdicts = readVerdictsFile(VerdictsFile);
  if (!Verdicts)
    return Verdicts.takeError();
  mergeVerdicts(Findings, *Verdicts, Strict);
  return llvm::Error::success();
}

} // namespace torch_tidy
