//===--- ProjectRun.cpp - Every file of a run, as fast as it can be -------===//

#include "ProjectRun.h"
#include "AnalysisKeys.h"
#include "ClangToolSetup.h"
#include "CrashReport.h"
#include "CrossFileSolver.h"
#include "LeadingIncludes.h"
#include "Plural.h"
#include "SharedPrefixPlan.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <thread>

namespace torch_tidy {

struct ProjectRun::FileState {
  std::string File;
  std::optional<CacheKey> Key;
  bool Cached = false;
  /// Why it is analysed: why the cache could not replay it.
  std::string Because = "the result cache is off";
  /// The shared prefix it is parsed from, if any.
  Prefix *From = nullptr;
  std::vector<Finding> Findings;
  /// What it leaves for the other files, fresh or replayed.
  CrossFileFacts CrossFile;
};

struct ProjectRun::Prefix {
  SharedPrefix Shared;
  PchSlot Slot;
  bool NeedsBuild = false;
  std::promise<std::string> Built;
  /// The precompiled header; empty when it could not be built.
  std::shared_future<std::string> Pch;
};

/// Runs \p Tasks on \p Jobs threads, each task once, in order of start.
static void runInParallel(const std::vector<std::function<void()>> &Tasks,
                          unsigned Jobs) {
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next++) < Tasks.size();)
      Tasks[I]();
  };
  std::vector<std::thread> Threads;
  for (unsigned I = 0; I < std::min<size_t>(std::max(Jobs, 1u), Tasks.size()); ++I)
    Threads.emplace_back(Work);
  for (std::thread &T : Threads)
    T.join();
}

/// A log gets a progress line after this many files or seconds, whichever
/// comes first: a short run's log is its findings and its summary alone.
static constexpr size_t LogEveryFiles = 10;
static constexpr std::chrono::seconds LogEvery(5);

void ProjectRun::progress(const std::string &File, llvm::StringRef Note) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Done;
  switch (Settings.Progress) {
  case ProgressStyle::None:
    return;
  case ProgressStyle::Terminal:
    llvm::errs() << "\r\033[K[" << Done << "/" << Total << "] " << File;
    if (!Note.empty())
      llvm::errs() << " (" << Note << ")";
    return;
  case ProgressStyle::Log: {
    auto Now = std::chrono::steady_clock::now();
    if (Done - LoggedDone < LogEveryFiles && Now - LoggedAt < LogEvery)
      return;
    LoggedDone = Done;
    LoggedAt = Now;
    llvm::errs() << "[" << Done << "/" << Total << "] " << File;
    if (!Note.empty())
      llvm::errs() << " (" << Note << ")";
    llvm::errs() << "\n";
    return;
  }
  }
}

void ProjectRun::finishFile(FileState &State) {
  // The warnings that are errors are an output setting, not part of the
  // analysis: decided here, for fresh and cached analyses alike.
  markWarningsAsErrors(State.Findings,
                       OptionsFor(State.File).WarningsAsErrors.value_or(""));
  sortAndDeduplicate(State.Findings);
  if (!Settings.OnFileDone)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Settings.Progress == ProgressStyle::Terminal)
    llvm::errs() << "\r\033[K"; // the findings where the progress line was
  Settings.OnFileDone(State.Findings);
}

void ProjectRun::lookUpCache(std::vector<FileState> &States) {
  std::vector<std::function<void()>> Lookups;
  for (FileState &State : States)
    Lookups.push_back([&] {
      State.Key = cacheKeyFor(State.File, Database, OptionsFor(State.File),
                              Settings.FixNotes, Settings.Tool);
      CacheLookup Found = Settings.Cache->lookup(*State.Key);
      if (!Found.Output) {
        State.Because = Found.Reason;
        return;
      }
      State.Cached = true;
      State.Findings = readWorkerOutput(State.File, *Found.Output, Index,
                                        State.CrossFile);
      progress(State.File, "cached");
      finishFile(State);
      std::lock_guard<std::mutex> Guard(Lock);
      ++Count.Cached;
    });
  runInParallel(Lookups, Settings.Jobs);
}

std::vector<ProjectRun::Prefix>
ProjectRun::planPrefixes(std::vector<FileState> &States) {
  // Planned over every file, cached or not, so that a run that analyses a
  // few files finds the header the run before built for all of them.
  std::map<std::string, std::optional<std::string>> Texts;
  auto Read = [&](const std::string &Path) -> std::optional<std::string> {
    auto [It, Inserted] = Texts.try_emplace(Path);
    if (Inserted)
      if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
        It->second = (*Buffer)->getBuffer().str();
    return It->second;
  };
  std::vector<PrefixCandidate> Candidates;
  for (const FileState &State : States) {
    clang::tidy::ClangTidyOptions Options = OptionsFor(State.File);
    auto Key = sharedHeaderKeyFor(State.File, Database, Options);
    if (!Key)
      continue;
    // One command: sharedHeaderKeyFor() says so.
    clang::tooling::CompileCommand Command =
        Database.getCompileCommands(State.File).front();
    std::vector<std::string> QuotedDirs = quotedIncludeDirs(
        analysedCommandLine(Command, Options), Command.Directory);
    Candidates.push_back(
        {State.File, *Key, leadingIncludes(State.File, QuotedDirs, Read)});
  }
  std::vector<SharedPrefix> Plan = planSharedPrefixes(Candidates, /*MinFiles=*/1);

  std::vector<Prefix> Prefixes(Plan.size());
  for (size_t I = 0; I < Plan.size(); ++I) {
    Prefix &P = Prefixes[I];
    P.Shared = std::move(Plan[I]);
    P.Slot = Settings.Pchs->slotFor(P.Shared, Settings.Tool);
    P.Pch = P.Built.get_future().share();
  }
  return Prefixes;
}

std::string ProjectRun::buildPrefix(Prefix &P) {
  auto Output = Settings.Pchs->prepare(P.Slot, P.Shared);
  if (!Output) {
    llvm::consumeError(Output.takeError());
    return "";
  }
  auto Started = std::chrono::system_clock::now();
  WorkerRun Run = Launcher.precompile(P.Shared.Files.front(),
                                      P.Slot.PrefixHeader, *Output);
  // Built from files that changed meanwhile, it may be from either version.
  bool Changed = llvm::any_of(Run.Read, [&](const std::string &Input) {
    return Digests.of(Input).Modified > Started;
  });
  if (!Run.Succeeded || Changed ||
      Settings.Pchs->commit(P.Slot, *Output, Run.Read)) {
    llvm::sys::fs::remove(*Output);
    return "";
  }
  std::lock_guard<std::mutex> Guard(Lock);
  ++Count.PchsBuilt;
  return P.Slot.Pch;
}

void ProjectRun::analyse(FileState &State, const std::string &Pch) {
  progress(State.File, "");
  auto Started = std::chrono::system_clock::now();
  WorkerRun Run = Launcher.analyze(State.File, Pch);
  if (!Run.Succeeded) {
    State.Findings = {crashFinding(State.File, Run.Problem, Run.Stderr, Index)};
    finishFile(State);
    std::lock_guard<std::mutex> Guard(Lock);
    ++Count.Analysed;
    ++Count.Crashed;
    return;
  }
  State.Findings =
      readWorkerOutput(State.File, Run.Output, Index, State.CrossFile);
  // Compiler errors may come from a header that is missing now and found
  // later: such an analysis is not kept.
  bool Compiled = llvm::none_of(State.Findings, [](const Finding &F) {
    return F.isCompilerError();
  });
  bool Clean = Compiled && llvm::none_of(State.Findings, [](const Finding &F) {
    return F.Check == CrashCheckName;
  });
  if (Settings.Cache && State.Key && Clean)
    Settings.Cache->store(*State.Key, Run.Output, Run.Read, Run.ReadThroughPch,
                          Started, State.Because);
  finishFile(State);
  std::lock_guard<std::mutex> Guard(Lock);
  ++Count.Analysed;
  Count.FailedToCompile += !Compiled;
  Count.FromSharedPch += Run.UsedSharedPch;
}

std::vector<Finding> ProjectRun::run(const std::vector<std::string> &Files) {
  Total = Files.size();
  std::vector<FileState> States(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    States[I].File = Files[I];
  if (Settings.Cache)
    lookUpCache(States);
  bool AllCached = llvm::all_of(States, [](const FileState &S) { return S.Cached; });

  std::vector<Prefix> Prefixes;
  if (Settings.Pchs && !AllCached)
    Prefixes = planPrefixes(States);
  std::map<std::string, Prefix *> PrefixOf;
  for (Prefix &P : Prefixes)
    for (const std::string &File : P.Shared.Files)
      PrefixOf[File] = &P;
  // A header still valid is used by any file; a new one is built for two
  // files or more.
  std::map<Prefix *, size_t> Missed;
  for (FileState &State : States)
    if (!State.Cached)
      if (auto It = PrefixOf.find(State.File); It != PrefixOf.end())
        ++Missed[State.From = It->second];
  std::vector<std::function<void()>> Tasks;
  for (auto &[P, N] : Missed) {
    if (Settings.Pchs->isValid(P->Slot)) {
      Settings.Pchs->touch(P->Slot);
      P->Built.set_value(P->Slot.Pch);
      ++Count.PchsReused;
    } else if (N >= 2) {
      Tasks.push_back([this, P = P] { P->Built.set_value(buildPrefix(*P)); });
    } else {
      P->Built.set_value("");
    }
  }
  // The files that wait for no header first, so that no worker idles while
  // one is built.
  for (bool Waiting : {false, true})
    for (FileState &State : States) {
      if (State.Cached ||
          Waiting != (State.From && State.From->Pch.wait_for(std::chrono::seconds(0)) !=
                                        std::future_status::ready))
        continue;
      Tasks.push_back([this, &State] {
        analyse(State, State.From ? State.From->Pch.get() : "");
      });
    }
  runInParallel(Tasks, Settings.Jobs);
  if (Settings.Progress == ProgressStyle::Terminal)
    llvm::errs() << "\r\033[K";

  // Cached or not, every file's findings and what it leaves for the others:
  // a conditional finding is decided here, against this run's files.
  std::vector<Finding> Findings;
  std::vector<CrossFileFacts> CrossFile;
  for (FileState &State : States) {
    std::move(State.Findings.begin(), State.Findings.end(),
              std::back_inserter(Findings));
    if (!State.CrossFile.empty())
      CrossFile.push_back(std::move(State.CrossFile));
  }
  CrossFileResolution Solved = solveCrossFile(CrossFile);
  Count.AcrossFiles = Solved.Findings.size();
  Count.ChainsCut = Solved.BoundHits;
  llvm::append_range(Findings, std::move(Solved.Findings));
  sortAndDeduplicate(Findings);
  return Findings;
}

void ProjectRun::printSummary(llvm::raw_ostream &OS, size_t Findings,
                              llvm::StringRef BySeverity,
                              std::chrono::duration<double> WallTime) const {
  OS << "torch-tidy: " << plural(Findings, "finding");
  if (!BySeverity.empty())
    OS << " (" << BySeverity << ")";
  OS << "; "
     << plural(Total, "file") << ": " << Count.Cached << " cached, "
     << Count.Analysed << " analysed";
  if (Count.Analysed)
    OS << " (" << Count.FromSharedPch
       << " from a shared precompiled header)";
  if (Count.AcrossFiles)
    OS << "; " << plural(Count.AcrossFiles, "finding") << " decided across files";
  if (Count.ChainsCut)
    OS << "; " << plural(Count.ChainsCut, "chain") << " across files cut at "
       << MaxChainLinks << " links";
  if (Count.PchsBuilt || Count.PchsReused)
    OS << "; precompiled headers: " << Count.PchsBuilt << " built, "
       << Count.PchsReused << " reused";
  OS << "; " << Count.FailedToCompile << " failed to compile";
  if (Count.Crashed)
    OS << "; " << Count.Crashed << " crashed";
  OS << "; " << llvm::format("%.1f s", WallTime.count()) << "\n";
}

} // namespace torch_tidy
