//===--- Driver.cpp - The torch-tidy command line -------------------------===//
//
// clang-tidy's command line over clang-tidy's engine with only torch-tidy's
// rules, plus what clang-tidy lacks: JSON and SARIF output, -j, analysis of a
// whole compile database, and the runtime probe's verdicts.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "AnalysisKeys.h"
#include "CacheDirectory.h"
#include "CheckRunner.h"
#include "CompileDatabase.h"
#include "CudaCommand.h"
#include "Configuration.h"
#include "Confirmation.h"
#include "CrossFile.h"
#include "Finding.h"
#include "FindingStream.h"
#include "FixApplier.h"
#include "CrashReport.h"
#include "Gate.h"
#include "LanguageServer.h"
#include "Merge.h"
#include "Output.h"
#include "PlanCollector.h"
#include "ProjectRun.h"
#include "SeverityGate.h"
#include "SharedPchBuild.h"
#include "SourceLanguage.h"
#include "ValueListParser.h"
#include "Version.h"
#include "Worker.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

extern volatile int TorchTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED TorchTidyModuleAnchorDestination =
    TorchTidyModuleAnchorSource;

namespace torch_tidy {

using namespace clang;
using namespace clang::tidy;
namespace cl = llvm::cl;

static cl::OptionCategory Category("torch-tidy options");

static const char Overview[] = R"(
torch-tidy finds device-consistency bugs in C++ code written against LibTorch:
tensors that meet on different devices, .to() results thrown away, checkpoints
loaded without a device, module state that Module::to() does not move (the
device-* rules); and training-loop mistakes: gradients never cleared, inference
that records a graph (the training-* rules). See --list-checks.

It is used like clang-tidy: give it source files and a compile database (-p),
or compiler flags after '--'. Without files, -p analyzes every file of the
database. Configuration comes from the nearest '.torch-tidy' file (the same
YAML keys as '.clang-tidy'), --config or --config-file; a project's
'.clang-tidy' is not read, so it cannot switch torch-tidy's rules off.

'torch-tidy merge REPORT... -o FILE' joins the reports of --shard runs.
)";

static cl::list<std::string> SourcePaths(cl::Positional,
                                         cl::desc("[<file> ...]"),
                                         cl::cat(Category));
static cl::opt<std::string> BuildPath("p", cl::desc("Build path: the directory "
                                                    "of compile_commands.json"),
                                      cl::value_desc("build-path"),
                                      cl::cat(Category));
static cl::opt<std::string> Checks("checks", cl::desc(R"(
Comma-separated list of globs with optional '-' prefix; added to the checks of
the configuration. Default: every torch-tidy rule (see --list-checks).)"),
                                   cl::init(""), cl::cat(Category));
static cl::opt<std::string> WarningsAsErrors("warnings-as-errors", cl::desc(R"(
Checks whose warnings are errors (globs, as --checks); with any, the exit
status is 1.)"),
                                             cl::init(""), cl::cat(Category));
static cl::opt<std::string> HeaderFilter("header-filter", cl::desc(R"(
Regular expression of the headers whose diagnostics are shown (the main file's
always are).)"),
                                         cl::init(""), cl::cat(Category));
static cl::opt<bool> SystemHeaders("system-headers",
                                   cl::desc("Show diagnostics from system "
                                            "headers."),
                                   cl::init(false), cl::cat(Category));
static cl::opt<std::string> Config("config", cl::desc(R"(
Configuration in YAML or JSON, e.g. --config="{Checks: 'device-*'}".)"),
                                   cl::init(""), cl::cat(Category));
static cl::opt<std::string> ConfigFile("config-file", cl::desc(R"(
A configuration file to read instead of the nearest '.torch-tidy'.)"),
                                       cl::init(""), cl::cat(Category));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."),
                         cl::init(false), cl::cat(Category));
static cl::opt<bool> FixErrors("fix-errors", cl::desc(R"(
Apply the suggested fixes even when the code has compiler errors.)"),
                               cl::init(false), cl::cat(Category));
static cl::opt<bool> FixNotes("fix-notes", cl::desc(R"(
Apply fixes found in notes too (implies --fix).)"),
                              cl::init(false), cl::cat(Category));
static cl::opt<std::string> ExportFixes("export-fixes", cl::desc(R"(
Write the suggested fixes to this YAML file, as clang-tidy does, for
clang-apply-replacements.)"),
                                        cl::value_desc("filename"),
                                        cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit."),
                                cl::init(false), cl::cat(Category));
static cl::opt<bool> DumpConfig("dump-config", cl::desc(R"(
Print the configuration that applies to the first file (or the current
directory) and exit.)"),
                                cl::init(false), cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Print nothing but findings."),
                           cl::init(false), cl::cat(Category));
static cl::opt<bool> UseColor("use-color", cl::desc("Use colors in text "
                                                    "output."),
                              cl::cat(Category));
static cl::list<std::string> ExtraArgs("extra-arg", cl::desc(R"(
An argument to append to the compiler command line.)"),
                                       cl::cat(Category));
static cl::list<std::string> ExtraArgsBefore("extra-arg-before", cl::desc(R"(
An argument to prepend to the compiler command line.)"),
                                             cl::cat(Category));

enum class Format { Text, Json, JsonLines, Sarif, GitHub };
static cl::opt<Format, false, ValueListParser<Format>> OutputFormat(
    "format", cl::desc("Output format:"),
    cl::values(clEnumValN(Format::Text, "text", "clang-tidy's text (default)"),
               clEnumValN(Format::Json, "json",
                          "a JSON array of findings, one object each"),
               clEnumValN(Format::JsonLines, "jsonl",
                          "JSON Lines: one finding's object per line"),
               clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(Format::GitHub, "github",
                          "text and GitHub Actions' annotations; a job "
                          "summary in $GITHUB_STEP_SUMMARY")),
    cl::init(Format::Text), cl::cat(Category));
static cl::opt<std::string> OutputFile("output", cl::desc(R"(
Write the findings to this file instead of standard output.)"),
                                       cl::value_desc("filename"),
                                       cl::cat(Category));
static cl::opt<unsigned> Jobs("j", cl::desc(R"(
Number of files analyzed in parallel (default: the number of cores).)"),
                              cl::init(0), cl::cat(Category));
static cl::opt<std::string> SourceRoot("source-root", cl::desc(R"(
Directory that SARIF paths are relative to (default: the current directory).)"),
                                       cl::init(""), cl::cat(Category));

static cl::opt<std::string> EmitPlans("emit-plans", cl::desc(R"(
Write each finding's replay plan into this directory, for torch-tidy-probe
(e.g. on a GPU runner: scripts/gpu-confirm.sh DIR).)"),
                                     cl::value_desc("directory"),
                                     cl::cat(Category));
static cl::opt<std::string> Confirm("confirm", cl::desc(R"(
Replay each finding on a device with torch-tidy-probe and show its verdict:
auto (a GPU if there is one, else the meta stand-in), cuda or meta.)"),
                                   cl::ValueOptional, cl::value_desc("backend"),
                                   cl::cat(Category));
static cl::opt<bool> ConfirmStrict("confirm-strict", cl::desc(R"(
Drop findings that the probe ran without reproducing (default: show them as
notes).)"),
                                   cl::init(false), cl::cat(Category));
static cl::opt<std::string> VerdictsFile("verdicts", cl::desc(R"(
Merge verdicts that torch-tidy-probe wrote elsewhere (e.g. on a GPU runner),
as --confirm would.)"),
                                         cl::value_desc("filename"),
                                         cl::cat(Category));

static cl::opt<std::string> CacheDir("cache-dir", cl::desc(R"(
Where analyses are cached, with the precompiled headers that files share
(default: $XDG_CACHE_HOME/torch-tidy, else ~/.cache/torch-tidy). A file whose
contents, included files, compile command and configuration are unchanged is
not analysed again: its findings are replayed.)"),
                                     cl::value_desc("directory"),
                                     cl::cat(Category));
static cl::opt<bool> NoCache("no-cache", cl::desc(R"(
Analyse every file, and keep nothing for the next run.)"),
                             cl::init(false), cl::cat(Category));
static cl::opt<std::string> CacheSize("cache-size", cl::desc(R"(
The most the cache directory holds, e.g. 500M or 4G (default: 2G); the least
recently used entries are removed first.)"),
                                      cl::value_desc("size"), cl::cat(Category));
static cl::opt<std::string> ExplainCache("explain-cache", cl::desc(R"(
Say whether the next run replays this file's cached analysis, and if not,
why (which input changed); then exit.)"),
                                         cl::value_desc("file"),
                                         cl::cat(Category));
static cl::opt<bool> NoSharedPch("no-shared-pch", cl::desc(R"(
Parse every file on its own, without a precompiled header of the headers
that files with the same compile flags start with.)"),
                                 cl::init(false), cl::cat(Category));

// Set by the driver when it runs itself as a worker for one file.
static cl::opt<std::string> WorkerFile("worker-file", cl::Hidden,
                                       cl::cat(Category));
static cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden,
                                         cl::cat(Category));
static cl::opt<std::string> WorkerInputs("worker-inputs", cl::Hidden,
                                         cl::cat(Category));
static cl::opt<std::string> WorkerPch("worker-pch", cl::Hidden,
                                      cl::cat(Category));
static cl::opt<std::string> WorkerBuildPch("worker-build-pch", cl::Hidden,
                                           cl::cat(Category));

/// A one-line error on stderr, in the style of clang's driver.
static int fail(const llvm::Twine &Message) {
  llvm::errs() << "torch-tidy: error: " << Message << "\n";
  return 1;
}

static std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The configuration options of the command line.
static ConfigurationFlags configurationFlags() {
  auto Given = [](const auto &Option) {
    using Value = std::decay_t<decltype(Option.getValue())>;
    return Option.getNumOccurrences() ? std::optional<Value>(Option.getValue())
                                      : std::nullopt;
  };
  ConfigurationFlags Flags;
  Flags.Checks = Given(Checks);
  Flags.WarningsAsErrors = Given(WarningsAsErrors);
  Flags.HeaderFilter = Given(HeaderFilter);
  Flags.SystemHeaders = Given(SystemHeaders);
  Flags.UseColor = Given(UseColor);
  Flags.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Flags.ExtraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  Flags.Config = Given(Config);
  Flags.ConfigFile = Given(ConfigFile);
  return Flags;
}

namespace {

/// What analysing one file in this process found and read.
struct LocalAnalysis {
  std::vector<Finding> Findings;
  /// What it leaves for the other files.
  CrossFileFacts CrossFile;
  CheckRun Run;
};

/// Runs clang-tidy's engine on \p File in this process, from \p SharedPch
/// when it is given and can be loaded; sets apart the findings another file
/// decides.
LocalAnalysis analyzeHere(const OptionsFactory &Options,
                          const tooling::CompilationDatabase &Database,
                          const std::string &File, SourceIndex &Index,
                          const std::string &SharedPch) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
  ClangTidyContext Context(Options.create(FS));
  // The checks' recorders while this file is analysed.
  PlanCollector Plans;
  CrossFileCollector CrossFileRecorder;
  CheckRunOptions RunOptions;
  RunOptions.FixNotes = FixNotes;
  RunOptions.SharedPch = SharedPch;
  LocalAnalysis Result;
  Result.Run = runChecks(Context, Database, File, FS, RunOptions);
  if (Result.Run.PchRejected)
    return analyzeHere(Options, Database, File, Index, "");
  for (const ClangTidyError &Error : Result.Run.Errors)
    Result.Findings.push_back(toFinding(Error, Index));
  Plans.attachTo(Result.Findings);
  Result.CrossFile = CrossFileRecorder.take(Result.Findings, File, Index);
  return Result;
}

} // namespace

static void printVersion(llvm::raw_ostream &OS) {
  OS << "torch-tidy " << TORCH_TIDY_VERSION
     << " (clang-tidy engine, LLVM " LLVM_VERSION_STRING ")\n";
}

static int listChecks(const OptionsFactory &Options, llvm::StringRef File) {
  ClangTidyOptions Effective = Options.create()->getOptions(absolute(File));
  std::vector<std::string> Enabled = getCheckNames(Effective, false);
  if (Enabled.empty())
    return fail("no checks enabled");
  llvm::outs() << "Enabled checks:";
  for (const std::string &Name : Enabled)
    llvm::outs() << "\n    " << Name;
  llvm::outs() << "\n\n";
  return 0;
}

static int dumpConfig(const OptionsFactory &Options, llvm::StringRef File) {
  ClangTidyOptions Effective = Options.create()->getOptions(absolute(File));
  Effective.CheckOptions = getCheckOptions(Effective, false);
  llvm::outs() << configurationAsText(
                      ClangTidyOptions::getDefaults().merge(Effective, 0))
               << "\n";
  return 0;
}

static llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
chooseDatabase(std::unique_ptr<tooling::CompilationDatabase> FromDashDash,
               const std::vector<std::string> &Inputs) {
  if (FromDashDash)
    return std::move(FromDashDash);
  if (!BuildPath.empty())
    return loadFromBuildPath(BuildPath);
  auto Found = discoverAbove(Inputs.front());
  if (!Found || *Found)
    return Found;
  llvm::errs() << "torch-tidy: warning: no compile_commands.json above '"
               << Inputs.front()
               << "'; running without flags (use -p <build-dir> or "
                  "'-- <flags>')\n";
  return std::make_unique<tooling::FixedCompilationDatabase>(
      ".", std::vector<std::string>());
}

static std::vector<std::string>
filesToAnalyze(const tooling::CompilationDatabase &Database,
               const std::vector<std::string> &Inputs) {
  std::vector<std::string> Files;
  if (Inputs.empty()) {
    Files = Database.getAllFiles();
    llvm::sort(Files);
  } else {
    for (const std::string &Path : Inputs)
      Files.push_back(absolute(Path));
  }
  return Files;
}

/// Fails early on an output file that cannot be written, before the work.
static llvm::Error checkWritable(llvm::StringRef Path) {
  if (Path.empty())
    return llvm::Error::success();
  if (llvm::sys::fs::is_directory(Path))
    return llvm::createStringError(std::errc::is_a_directory,
                                   "cannot write '%s': it is a directory",
                                   Path.str().c_str());
  llvm::SmallString<256> Dir(absolute(Path));
  llvm::sys::path::remove_filename(Dir);
  if (!llvm::sys::fs::is_directory(Dir))
    return llvm::createStringError(std::errc::no_such_file_or_directory,
                                   "cannot write '%s': no directory '%s'",
                                   Path.str().c_str(), Dir.c_str());
  if (llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write) ||
      (llvm::sys::fs::exists(Path) &&
       llvm::sys::fs::access(Path, llvm::sys::fs::AccessMode::Write)))
    return llvm::createStringError(std::errc::permission_denied,
                                   "cannot write '%s': permission denied",
                                   Path.str().c_str());
  return llvm::Error::success();
}

static std::string render(const std::vector<Finding> &Findings,
                          const Gate &Counted, bool ToTerminal) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  switch (OutputFormat) {
  case Format::Text: {
    bool Color = UseColor.getNumOccurrences()
                     ? UseColor
                     : ToTerminal && llvm::sys::Process::StandardOutHasColors();
    writeText(OS, Findings, Color);
    break;
  }
  case Format::Json:
    writeJson(OS, Findings);
    break;
  case Format::JsonLines:
    writeJsonLines(OS, Findings);
    break;
  case Format::GitHub:
    writeGitHub(OS, Findings,
                absolute(SourceRoot.empty() ? "." : SourceRoot.getValue()));
    break;
  case Format::Sarif: {
    std::string Root = absolute(SourceRoot.empty() ? "." : SourceRoot.getValue());
    if (size_t LeftOut = writeSarif(OS, Counted.sarifFindings(),
                                    Counted.sarifOptions(Root)))
      llvm::errs() << "torch-tidy: warning: " << LeftOut
                   << " results left out of the SARIF log, above GitHub code "
                      "scanning's limit of "
                   << GitHubMaxResultsPerRun << " per run\n";
    break;
  }
  }
  return Text;
}

static llvm::Error exportFixes(const std::vector<Finding> &Findings,
                               const std::vector<ClangTidyError> &Errors) {
  std::string Yaml;
  llvm::raw_string_ostream OS(Yaml);
  exportReplacements(Findings.empty() ? "" : Findings.front().Where.File,
                     Errors, OS);
  return writeFileAtomically(ExportFixes, OS.str());
}

/// clang-tidy's errors again, for exportReplacements, which reads them.
static std::vector<ClangTidyError>
asClangTidyErrors(const std::vector<Finding> &Findings) {
  std::vector<ClangTidyError> Errors;
  for (const Finding &F : Findings) {
    ClangTidyError E(F.Check, ClangTidyError::Warning, F.BuildDirectory,
                     F.IsWarningAsError);
    E.Message.Message = F.Message + verdictSuffix(F);
    E.Message.FilePath = F.Where.File;
    E.Message.FileOffset = F.Where.Offset;
    for (const Edit &Ed : F.Fixes) {
      tooling::Replacement R(Ed.Where.File, Ed.Where.Offset, Ed.Where.Length,
                             Ed.Replacement);
      llvm::consumeError(E.Message.Fix[Ed.Where.File].add(R));
    }
    Errors.push_back(std::move(E));
  }
  return Errors;
}

/// Whether the findings can be printed as each file is done: on stdout that
/// is not a terminal (a log, a pipe; a terminal shows the progress line), in
/// a format that need not see the whole run, when nothing after the analysis
/// removes or changes findings (a baseline, a line filter, the probe).
static bool streamsFindings(const Gate &Counted) {
  bool Streamable = OutputFormat == Format::Text ||
                    OutputFormat == Format::JsonLines ||
                    OutputFormat == Format::GitHub;
  return Streamable && OutputFile.empty() &&
         !llvm::sys::Process::StandardOutIsDisplayed() &&
         Counted.keepsEveryFinding() && !Confirm.getNumOccurrences() &&
         VerdictsFile.empty();
}

/// --format=github: appends the job summary to $GITHUB_STEP_SUMMARY, when
/// the run is a step of a workflow.
static llvm::Error writeJobSummary(const std::vector<Finding> &Findings) {
  std::optional<std::string> Path =
      llvm::sys::Process::GetEnv("GITHUB_STEP_SUMMARY");
  if (OutputFormat != Format::GitHub || !Path || Path->empty())
    return llvm::Error::success();
  std::error_code EC;
  llvm::raw_fd_ostream OS(*Path, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return llvm::createStringError(EC, "cannot write the job summary '%s': %s",
                                   Path->c_str(), EC.message().c_str());
  writeGitHubSummary(OS, Findings);
  return llvm::Error::success();
}

/// --emit-plans, --confirm and --verdicts.
static llvm::Error confirm(std::vector<Finding> &Findings, const char *Argv0) {
  namePlans(Findings, absolute(SourceRoot.empty() ? "." : SourceRoot.getValue()));
  if (!EmitPlans.empty())
    if (llvm::Error Err = writePlans(Findings, EmitPlans))
      return Err;
  std::string Verdicts = VerdictsFile;
  if (Confirm.getNumOccurrences()) {
    std::string Backend = Confirm.empty() ? "auto" : Confirm.getValue();
    if (Backend != "auto" && Backend != "cuda" && Backend != "meta")
      return llvm::createStringError(std::errc::invalid_argument,
                                     "--confirm takes auto, cuda or meta, not '%s'",
                                     Backend.c_str());
    auto Produced = runProbe(Findings, Backend, Argv0);
    if (!Produced)
      return Produced.takeError();
    Verdicts = *Produced;
  }
  if (Verdicts.empty())
    return llvm::Error::success();
  return mergeVerdicts(Findings, Verdicts, ConfirmStrict);
}

namespace {

/// The result cache and the shared precompiled headers of a run, in the
/// cache directory or (--no-cache) in a directory of the run's own.
struct Caches {
  FileDigests Digests;
  std::optional<CacheDirectory> Directory;
  std::unique_ptr<ResultCache> Results;
  std::unique_ptr<SharedPchStore> Pchs;
  std::string RunDirectory;

  llvm::Error open() {
    uint64_t Limit = CacheDirectory::DefaultLimit;
    if (CacheSize.getNumOccurrences()) {
      std::optional<uint64_t> Parsed = parseSize(CacheSize);
      if (!Parsed)
        return llvm::createStringError(std::errc::invalid_argument,
                                       "--cache-size takes a size such as "
                                       "500M or 4G, not '%s'",
                                       CacheSize.c_str());
      Limit = *Parsed;
    }
    if (!NoCache) {
      std::string Root = CacheDir.empty() ? CacheDirectory::defaultRoot()
                                          : CacheDir.getValue();
      auto Opened = Root.empty()
                        ? llvm::Expected<CacheDirectory>(llvm::createStringError(
                              std::errc::invalid_argument,
                              "neither XDG_CACHE_HOME nor HOME is set"))
                        : CacheDirectory::open(Root, Limit);
      if (Opened) {
        Directory.emplace(std::move(*Opened));
        Results = std::make_unique<ResultCache>(*Directory, Digests);
      } else if (CacheDir.getNumOccurrences()) {
        return Opened.takeError();
      } else {
        llvm::errs() << "torch-tidy: warning: "
                     << llvm::toString(Opened.takeError())
                     << "; running without a cache (see --cache-dir)\n";
      }
    }
    if (NoSharedPch)
      return llvm::Error::success();
    std::string PchDirectory;
    if (Directory) {
      PchDirectory = Directory->path("pch");
    } else {
      llvm::SmallString<128> Made;
      if (llvm::sys::fs::createUniqueDirectory("torch-tidy-pch", Made))
        return llvm::Error::success(); // no shared headers then
      PchDirectory = RunDirectory = std::string(Made);
    }
    Pchs = std::make_unique<SharedPchStore>(PchDirectory, Digests);
    return llvm::Error::success();
  }

  /// Keeps the cache within its size; removes the run's own directory.
  ~Caches() {
    if (Directory)
      Directory->evict();
    if (!RunDirectory.empty())
      llvm::sys::fs::remove_directories(RunDirectory);
  }
};

} // namespace

/// --explain-cache: whether the next run replays the file, and why not.
static int explainCache(const OptionsFactory &Options,
                        const tooling::CompilationDatabase &Database,
                        const std::string &Executable) {
  if (NoCache)
    return fail("--explain-cache reads the cache; --no-cache turns it off");
  Caches Stores;
  if (llvm::Error Err = Stores.open())
    return fail(llvm::toString(std::move(Err)));
  if (!Stores.Results)
    return fail("no cache directory to explain (see --cache-dir)");
  std::string File = absolute(ExplainCache);
  if (!llvm::sys::fs::exists(File))
    return fail("no such file: '" + ExplainCache + "'");
  CacheKey Key = cacheKeyFor(File, Database, Options.create()->getOptions(File),
                             FixNotes, toolDigest(Executable));
  llvm::outs() << Stores.Results->explain(Key);
  return 0;
}

/// The worker's side of WorkerLauncher: analyse one file and write its
/// findings, or precompile the headers files share.
static int runWorker(const OptionsFactory &Options,
                     const tooling::CompilationDatabase &Database) {
  if (!WorkerBuildPch.empty()) {
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
        new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem()));
    ClangTidyContext Context(Options.create(FS));
    auto Read = precompilePrefix(Context, Database, WorkerFile, WorkerBuildPch,
                                 WorkerOutput);
    if (!Read)
      return fail(llvm::toString(Read.takeError()));
    if (llvm::Error Err = writeWorkerInputs(WorkerInputs, *Read, {}, false))
      return fail(llvm::toString(std::move(Err)));
    return 0;
  }
  SourceIndex Index;
  LocalAnalysis Result =
      analyzeHere(Options, Database, WorkerFile, Index, WorkerPch);
  if (llvm::Error Err =
          writeWorkerOutput(WorkerOutput, Result.Findings, Result.CrossFile))
    return fail(llvm::toString(std::move(Err)));
  bool UsedSharedPch = !WorkerPch.empty() && !Result.Run.ReadThroughPch.empty();
  if (!WorkerInputs.empty())
    if (llvm::Error Err = writeWorkerInputs(WorkerInputs, Result.Run.Read,
                                            Result.Run.ReadThroughPch,
                                            UsedSharedPch))
      return fail(llvm::toString(std::move(Err)));
  return 0;
}

int runDriver(int Argc, const char **Argv) {
  auto Started = std::chrono::steady_clock::now();
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "merge")
    return runMerge(llvm::ArrayRef(Argv + 2, Argv + Argc));
  // The user's arguments, for the workers, before anything consumes them.
  std::vector<std::string> Arguments(Argv + 1, Argv + Argc);
  llvm::InitLLVM Init(Argc, Argv);
  std::string DashDashError;
  std::unique_ptr<tooling::CompilationDatabase> FromDashDash =
      tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv,
                                                             DashDashError);
  cl::HideUnrelatedOptions(
      {&Category, &gateCategory(), &languageServerCategory()});
  cl::SetVersionPrinter(printVersion);
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &llvm::errs()))
    return 1;

  OptionsFactory Options;
  if (llvm::Error Err = Options.init(configurationFlags()))
    return fail(llvm::toString(std::move(Err)));
  // A worker was given the same options: the parent has warned.
  if (WorkerFile.empty())
    Options.warnAboutUnknownNames(llvm::errs());
  llvm::StringRef FirstFile =
      SourcePaths.empty() ? llvm::StringRef("dummy") : SourcePaths.front();
  if (ListChecks || DumpConfig)
    if (llvm::Error Err =
            Options.verifyFiles({absolute(FirstFile)}, llvm::errs()))
      return fail(llvm::toString(std::move(Err)));
  if (ListChecks)
    return listChecks(Options, FirstFile);
  if (DumpConfig)
    return dumpConfig(Options, FirstFile);
  if (languageServerRequested())
    return runLanguageServer({&Options, BuildPath, std::move(FromDashDash),
                              VerdictsFile, SourceRoot, Jobs});

  if (SourcePaths.empty() && BuildPath.empty())
    return fail("no input files; give files or -p <build-dir> (see --help)");
  std::vector<std::string> Inputs;
  for (const std::string &Path : SourcePaths) {
    if (!llvm::sys::fs::exists(Path))
      return fail("no such file: '" + Path + "'");
    if (isCFamilySource(Path))
      Inputs.push_back(Path);
    else if (WorkerFile.empty())
      llvm::errs() << "torch-tidy: skipping '" << Path
                   << "': not a C, C++ or CUDA source\n";
  }
  if (!SourcePaths.empty() && Inputs.empty())
    return fail("no C, C++ or CUDA source among the files given");
  if (llvm::Error Err = checkWritable(OutputFile))
    return fail(llvm::toString(std::move(Err)));
  if (llvm::Error Err = checkWritable(ExportFixes))
    return fail(llvm::toString(std::move(Err)));

  auto Database = chooseDatabase(std::move(FromDashDash), Inputs);
  if (!Database)
    return fail(llvm::toString(Database.takeError()));
  std::unique_ptr<tooling::CompilationDatabase> Commands =
      adaptForClang(std::move(*Database));
  if (!WorkerFile.empty()) {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
    return runWorker(Options, *Commands);
  }
  static int Anchor;
  std::string Executable = llvm::sys::fs::getMainExecutable(Argv[0], &Anchor);
  if (!ExplainCache.empty())
    return explainCache(Options, *Commands, Executable);
  auto Counted = Gate::fromOptions();
  if (!Counted)
    return fail(llvm::toString(Counted.takeError()));
  auto FailOn = SeverityGate::fromOptions();
  if (!FailOn)
    return fail(llvm::toString(FailOn.takeError()));
  if (llvm::Error Err = checkWritable(Counted->baselineToWrite()))
    return fail(llvm::toString(std::move(Err)));
  std::vector<std::string> Files = filesToAnalyze(*Commands, Inputs);
  if (Files.empty())
    return fail("the compile database lists no files");
  Files = Counted->select(std::move(Files), Inputs.empty());
  unsigned WithoutToolkit =
      leaveOutCudaWithoutToolkit(*Commands, Files, llvm::errs());
  if (Files.empty() && WithoutToolkit)
    return 1;
  if (llvm::Error Err = Options.verifyFiles(Files, llvm::errs()))
    return fail(llvm::toString(std::move(Err)));

  Caches Stores;
  if (llvm::Error Err = Stores.open())
    return fail(llvm::toString(std::move(Err)));
  ProjectSettings Settings;
  Settings.Jobs = Jobs ? Jobs : llvm::hardware_concurrency().compute_thread_count();
  Settings.Progress = Quiet ? ProgressStyle::None
                     : llvm::sys::Process::StandardErrIsDisplayed()
                         ? ProgressStyle::Terminal
                         : ProgressStyle::Log;
  std::optional<FindingStream> Stream;
  if (streamsFindings(*Counted)) {
    Stream.emplace(llvm::outs(), [&](const std::vector<Finding> &Done) {
      return render(Done, *Counted, /*ToTerminal=*/false);
    });
    Settings.OnFileDone = [&](const std::vector<Finding> &Done) {
      Stream->print(Done);
    };
  }
  Settings.FixNotes = FixNotes;
  Settings.Tool = toolDigest(Executable);
  Settings.Cache = Stores.Results.get();
  Settings.Pchs = Stores.Pchs.get();
  WorkerLauncher Launcher(Executable, Arguments);
  ProjectRun Project(
      Launcher, *Commands,
      [&](const std::string &File) { return Options.create()->getOptions(File); },
      Stores.Digests, Settings);
  std::vector<Finding> Findings = Project.run(Files);
  // The run's last line, whichever way it ends from here.
  auto Summary = llvm::make_scope_exit([&] {
    if (!Quiet)
      Project.printSummary(llvm::errs(), Findings.size(),
                           SeverityGate::countsBySeverity(Findings),
                           std::chrono::steady_clock::now() - Started);
  });

  if (llvm::Error Err = confirm(Findings, Argv[0]))
    return fail(llvm::toString(std::move(Err)));
  if (llvm::Error Err = Counted->apply(
          Findings, absolute(SourceRoot.empty() ? "." : SourceRoot.getValue()),
          Quiet))
    return fail(llvm::toString(std::move(Err)));

  bool CompilerErrors = llvm::any_of(
      Findings, [](const Finding &F) { return F.isCompilerError(); });
  unsigned Crashed = llvm::count_if(
      Findings, [](const Finding &F) { return F.Check == CrashCheckName; });
  unsigned WarningsAsErrorsCount = llvm::count_if(
      Findings, [](const Finding &F) { return F.IsWarningAsError; });

  if (!ExportFixes.empty())
    if (llvm::Error Err = exportFixes(Findings, asClangTidyErrors(Findings)))
      return fail(llvm::toString(std::move(Err)));

  // Streamed, only what cross-file resolution added is left to print.
  std::string Report =
      render(Stream ? Stream->unprinted(Findings) : Findings, *Counted,
             OutputFile.empty());
  if (OutputFile.empty()) {
    llvm::outs() << Report;
    llvm::outs().flush();
  } else if (llvm::Error Err = writeFileAtomically(OutputFile, Report)) {
    return fail(llvm::toString(std::move(Err)));
  }

  if (llvm::Error Err = writeJobSummary(Findings))
    return fail(llvm::toString(std::move(Err)));

  if (Fix || FixErrors || FixNotes) {
    if (CompilerErrors && !FixErrors) {
      llvm::errs() << "Found compiler errors, but -fix-errors was not "
                      "specified.\nFixes have NOT been applied.\n";
    } else {
      FixSummary Summary = applyFixes(Findings, FixNotes);
      for (const std::string &Error : Summary.Errors)
        llvm::errs() << "torch-tidy: error: " << Error << "\n";
      if (!Quiet)
        llvm::errs() << "torch-tidy applied " << Summary.Applied << " of "
                     << Summary.Suggested << " suggested fixes.\n";
      if (!Summary.Errors.empty())
        return 1;
    }
  }

  if (!Quiet)
    FailOn->printFailing(Findings, llvm::errs());
  if (WarningsAsErrorsCount) {
    if (!Quiet)
      llvm::errs() << WarningsAsErrorsCount << " warning"
                   << (WarningsAsErrorsCount == 1 ? "" : "s")
                   << " treated as error"
                   << (WarningsAsErrorsCount == 1 ? "" : "s") << "\n";
    return 1;
  }
  if (FailOn->failing(Findings))
    return 1;
  if (Crashed) {
    llvm::errs() << "torch-tidy: error: the analysis crashed on " << Crashed
                 << " file" << (Crashed == 1 ? "" : "s")
                 << "; see the " << CrashCheckName << " findings\n";
    return 1;
  }
  if (CompilerErrors) {
    if (FixErrors)
      return 0;
    llvm::errs() << "torch-tidy: error: compiler errors in the input; "
                    "findings may be incomplete\n";
    return 1;
  }
  return WithoutToolkit ? 1 : 0;
}

} // namespace torch_tidy
