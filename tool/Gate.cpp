//===--- Gate.cpp - Which findings count: the options of a CI gate --------===//

#include "Gate.h"
#include "GitDiff.h"
#include "Plural.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

namespace cl = llvm::cl;

cl::OptionCategory &gateCategory() {
  static cl::OptionCategory Category("torch-tidy options for CI gates");
  return Category;
}

static cl::opt<std::string> BaselineFile("baseline", cl::desc(R"(
Count only findings that are not in this baseline file (written by
--write-baseline). SARIF marks each result's baselineState: new, unchanged,
or absent for the baseline's findings that are fixed.)"),
                                         cl::value_desc("file"),
                                         cl::cat(gateCategory()));
static cl::opt<std::string> WriteBaselineFile("write-baseline", cl::desc(R"(
Record this run's findings in a baseline file, to be committed (its format:
docs/baseline.md).)"),
                                              cl::value_desc("file"),
                                              cl::cat(gateCategory()));
static cl::opt<std::string> LineFilterJson("line-filter", cl::desc(R"(
clang-tidy's line filter: count only findings on these lines, e.g.
'[{"name":"file1.cpp","lines":[[1,3],[5,7]]},{"name":"file2.h"}]'. A finding
with a note on such a line counts too.)"),
                                           cl::value_desc("json"),
                                           cl::cat(gateCategory()));
static cl::opt<std::string> DiffRevision("diff", cl::desc(R"(
Count only findings on lines changed since this git revision (default: the
merge base of HEAD and its upstream branch), or whose notes are; with -p and
no files, analyse only the files the change touches.)"),
                                         cl::ValueOptional,
                                         cl::value_desc("rev"),
                                         cl::cat(gateCategory()));
static cl::opt<std::string> DiffFile("diff-file", cl::desc(R"(
As --diff, with the changed lines of this unified diff ('-': standard input),
e.g. from 'git diff -U0'; its paths are relative to the root of the git work
tree (as git writes them), or to the current directory outside one.)"),
                                     cl::value_desc("patch"),
                                     cl::cat(gateCategory()));
static cl::opt<std::string> ShardOption("shard", cl::desc(R"(
Analyse the K-th of N parts of the files (1 <= K <= N), the same parts on
every machine; 'torch-tidy merge' joins the parts' reports.)"),
                                        cl::value_desc("K/N"),
                                        cl::cat(gateCategory()));
static cl::opt<std::string> SarifCategory("sarif-category", cl::desc(R"(
SARIF's automationDetails.id: GitHub code scanning's category of the
analysis, to tell apart several analyses of one commit.)"),
                                          cl::value_desc("category"),
                                          cl::cat(gateCategory()));

static llvm::Error error(const llvm::Twine &Message) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 Message.str().c_str());
}

llvm::Expected<Gate> Gate::fromOptions() {
  bool Diff = DiffRevision.getNumOccurrences() > 0;
  unsigned LineModes = Diff + !DiffFile.empty() + !LineFilterJson.empty();
  if (LineModes > 1)
    return error("--diff, --diff-file and --line-filter choose the lines "
                 "that count in different ways: give one");
  if (!WriteBaselineFile.empty() && (LineModes || !ShardOption.empty()))
    return error("--write-baseline records the findings of a whole run: "
                 "it cannot be combined with --diff, --diff-file, "
                 "--line-filter or --shard");
  Gate G;
  if (!LineFilterJson.empty()) {
    auto Filter = parseLineFilter(LineFilterJson);
    if (!Filter)
      return Filter.takeError();
    G.Lines = std::move(*Filter);
  } else if (Diff) {
    auto Change = gitDiff(DiffRevision);
    if (!Change)
      return Change.takeError();
    G.Lines = addedLines(Change->Patch, Change->TopLevel);
    G.FromDiff = true;
  } else if (!DiffFile.empty()) {
    auto Patch = readPatch(DiffFile);
    if (!Patch)
      return Patch.takeError();
    G.Lines = addedLines(*Patch, patchBase());
    G.FromDiff = true;
  }
  if (!ShardOption.empty()) {
    auto Spec = parseShard(ShardOption);
    if (!Spec)
      return Spec.takeError();
    G.Shard = *Spec;
  }
  if (!BaselineFile.empty()) {
    auto Entries = readBaseline(BaselineFile);
    if (!Entries)
      return Entries.takeError();
    G.Baseline = std::move(*Entries);
  }
  return std::move(G);
}

std::string Gate::baselineToWrite() const { return WriteBaselineFile; }

std::vector<std::string> Gate::select(std::vector<std::string> Files,
                                      bool FromDatabase) {
  size_t All = Files.size();
  if (FromDatabase && FromDiff)
    Files = filesForChange(Files, *Lines);
  if (Shard)
    Files = selectShard(Files, *Shard, fileSizeOnDisk);
  if (!FromDatabase || Files.size() != All)
    Partial = Files;
  return Files;
}

llvm::Error Gate::apply(std::vector<Finding> &Findings,
                        const std::string &SourceRoot, bool Quiet) {
  if (Lines) {
    // A change that adds no line leaves nothing to count but errors.
    bool NoneChanged = FromDiff && Lines->empty();
    size_t Before = Findings.size();
    llvm::erase_if(Findings, [&](const Finding &F) {
      return NoneChanged ? !F.isCompilerError()
                         : !passesLineFilter(*Lines, F);
    });
    if (!Quiet && Findings.size() != Before)
      llvm::errs() << "torch-tidy: "
                   << plural(Before - Findings.size(), "finding")
                   << (FromDiff ? " off the changed lines" : " off the lines")
                   << " not shown\n";
  }
  std::vector<FindingIdentity> Identities = identify(Findings, SourceRoot);
  if (!WriteBaselineFile.empty()) {
    if (llvm::Error Err = writeBaseline(WriteBaselineFile, Findings, Identities))
      return Err;
    if (!Quiet)
      llvm::errs() << "torch-tidy: wrote "
                   << plural(llvm::count_if(Findings, belongsInBaseline),
                             "finding")
                   << " to the baseline '" << WriteBaselineFile << "'\n";
  }
  ForSarif = Findings;
  if (!Baseline)
    return llvm::Error::success();
  std::optional<std::set<std::string>> Analysed;
  if (Partial) {
    Analysed.emplace();
    for (const std::string &File : *Partial)
      Analysed->insert(relativeToRoot(File, SourceRoot));
  }
  Comparison = compareWithBaseline(Findings, Identities, *Baseline, Analysed);
  std::vector<Finding> New;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Comparison->Unchanged[I])
      New.push_back(Findings[I]);
  if (!Quiet)
    llvm::errs() << "torch-tidy: " << plural(New.size(), "new finding") << "; "
                 << plural(Findings.size() - New.size(), "finding")
                 << " in the baseline not shown; "
                 << plural(Comparison->Absent.size(), "finding")
                 << " of the baseline fixed\n";
  Findings = std::move(New);
  return llvm::Error::success();
}

SarifOptions Gate::sarifOptions(const std::string &SourceRoot) const {
  SarifOptions Options;
  Options.SourceRoot = SourceRoot;
  Options.Category = SarifCategory;
  Options.Baseline = Comparison ? &*Comparison : nullptr;
  return Options;
}

} // namespace torch_tidy
