//===--- Confirmation.cpp - Replay plans out, verdicts in -----------------===//

#include "Confirmation.h"
#include "FixApplier.h"
#include "JsonFields.h"
#include "plans/ReplayPlan.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <tuple>

namespace torch_tidy {

using clang::tidy::torch_tidy::plans::takeRecordedPlans;

void attachRecordedPlans(std::vector<Finding> &Findings) {
  for (auto &Recorded : takeRecordedPlans())
    for (Finding &F : Findings)
      if (F.Check == Recorded.Check && F.Where.Offset == Recorded.Offset &&
          llvm::sys::fs::equivalent(F.Where.File, Recorded.File)) {
        F.Plan = std::move(Recorded.Plan);
        break;
      }
}

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
  auto Probe = findProbe(Argv0);
  if (!Probe)
    return Probe.takeError();
  llvm::SmallString<256> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("torch-tidy-plans", Dir))
    return llvm::createStringError(EC, "cannot create a temporary directory");
  // Plans in a folder of their own, so the verdicts file is not read as one.
  std::string PlanDir = (Dir + "/plans").str();
  std::string Verdicts = (Dir + "/verdicts.json").str();
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

/// \p Object's string field \p Key; a field of another type reads as absent.
static std::string stringField(const nlohmann::json &Object, const char *Key,
                               const char *Default = "") {
  auto It = Object.find(Key);
  return It != Object.end() && It->is_string() ? It->get<std::string>()
                                               : Default;
}

llvm::Error mergeVerdicts(std::vector<Finding> &Findings,
                          const std::string &VerdictsFile, bool Strict) {
  auto Buffer = llvm::MemoryBuffer::getFile(VerdictsFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read verdicts '%s': %s",
                                   VerdictsFile.c_str(),
                                   Buffer.getError().message().c_str());
  nlohmann::json Document = nlohmann::json::parse(
      (*Buffer)->getBuffer().begin(), (*Buffer)->getBuffer().end(), nullptr,
      /*allow_exceptions=*/false);
  if (Document.is_discarded() || !Document.is_object() ||
      stringField(Document, "format") != "torch-tidy-verdicts" ||
      !Document.contains("verdicts") || !Document["verdicts"].is_array())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "'%s' is not a torch-tidy verdicts file",
                                   VerdictsFile.c_str());
  std::map<std::string, Verdict> ById;
  for (const nlohmann::json &Item : Document["verdicts"]) {
    if (!Item.is_object() || !Item.contains("id") || !Item["id"].is_string())
      continue;
    std::string Message = stringField(Item, "message");
    if (Message.empty())
      Message = stringField(Item, "reason");
    ById[Item["id"].get<std::string>()] = {
        stringField(Item, "verdict", "inconclusive"),
        stringField(Item, "device"), Message};
  }
  std::vector<Finding> Kept;
  for (Finding &F : Findings) {
    if (F.Plan) {
      auto It = ById.find((*F.Plan)["id"].get<std::string>());
      if (It != ById.end())
        F.Confirmation = It->second;
    } else if (llvm::StringRef(F.Check).starts_with("device-")) {
      F.Confirmation = Verdict{"inconclusive", "", "no replay plan for this finding"};
    }
    F.Downgraded = F.Confirmation && F.Confirmation->Outcome == "not-reproduced";
    if (F.Downgraded)
      F.IsWarningAsError = F.IsError = false;
    if (!(Strict && F.Downgraded))
      Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
  return llvm::Error::success();
}

} // namespace torch_tidy
