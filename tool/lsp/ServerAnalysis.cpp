//===--- ServerAnalysis.cpp - The server's analyses and their results ----===//
//
// What the scheduler runs for an open file: its compile command, the
// analysis (contained, with progress while a preamble is built), the
// verdicts, and the delivery of a result that is still current, pushed or
// answering the pulls that wait for it.
//
//===----------------------------------------------------------------------===//

#include "Confirmation.h"
#include "CrashContainment.h"
#include "CrashReport.h"
#include "Server.h"
#include "llvm/Support/Path.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace torch_tidy::lsp {

using nlohmann::json;

/// The check name of the warning on a file the server cannot analyse.
static constexpr llvm::StringLiteral NoCommandCheckName =
    "torch-tidy-no-compile-command";

std::string Server::startProgress(const std::string &File) {
  if (!ClientShowsProgress)
    return "";
  std::string Token;
  std::string Title = "torch-tidy: parsing the includes of " +
                      llvm::sys::path::filename(File).str();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Token = "torch-tidy/" + std::to_string(++NextToken);
    Progresses[Token].Title = Title;
  }
  // A token is used once the client has created it.
  request("window/workDoneProgress/create", {{"token", Token}},
          [this, Token](const json &, bool Failed) {
            std::lock_guard<std::mutex> Guard(Lock);
            auto It = Progresses.find(Token);
            if (It == Progresses.end())
              return;
            if (Failed || It->second.Ended) {
              Progresses.erase(It);
              return;
            }
            It->second.Created = true;
            notify("$/progress",
                   {{"token", Token},
                    {"value",
                     {{"kind", "begin"},
                      {"title", It->second.Title},
                      {"cancellable", false}}}});
          });
  return Token;
}

void Server::endProgress(const std::string &Token) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Progresses.find(Token);
  if (It == Progresses.end())
    return;
  if (!It->second.Created) {
    It->second.Ended = true; // the client's reply ends it
    return;
  }
  notify("$/progress", {{"token", Token}, {"value", {{"kind", "end"}}}});
  Progresses.erase(It);
}

/// The warning on a file that has no compile command.
static Finding noCommandFinding(const std::string &File,
                                const std::string &Why) {
  Finding F;
  F.Check = NoCommandCheckName.str();
  F.Where.File = File;
  F.Message = "torch-tidy does not analyse this file, which has no compile "
              "command: " + Why;
  return F;
}

std::vector<Finding> Server::findingsOf(FileState &State, const std::string &File,
                                        const DocumentStore::Snapshot &Snapshot,
                                        const std::atomic<bool> &Cancelled,
                                        bool &Stale) {
  const Document &D = Snapshot.Documents.at(File);
  if (State.CrashedText && *State.CrashedText == D.Text)
    return State.CrashFindings;
  FileCommand Command = Commands.commandFor(File);
  if (Command.From == FileCommand::Missing)
    return {noCommandFinding(File, Command.Detail)};
  if (Command.From == FileCommand::Includer)
    log(File + ": the command of " + Command.Detail + ", which includes it");
  else if (Command.From == FileCommand::Interpolated)
    log(File + ": a command " + Command.Detail);

  AnalysisInputs In;
  In.File = File;
  In.Text = D.Text;
  In.Command = Command.Command;
  In.Files = Snapshot.Files;
  for (const auto &[Path, Open] : Snapshot.Documents)
    In.OpenTexts[Path] = Open.Text;
  AnalysisOutput Out;
  std::string Token;
  std::optional<std::string> Crash = runContained([&] {
    Out = State.Analyzer->run(In, Cancelled,
                              [&] { Token = startProgress(File); });
  });
  if (!Token.empty())
    endProgress(Token);
  if (Crash) {
    // Whatever the analyzer held is in an unknown state: it is left behind
    // (its memory too), and the file starts afresh.
    (void)State.Analyzer.release();
    State.Analyzer = std::make_unique<FileAnalyzer>(*Options.Configuration,
                                                    Options.PreambleDirectory);
    log("the analysis of " + File + " crashed (" + *Crash +
        "); the server goes on");
    SourceIndex Index;
    Index.useContents(File, D.Text);
    State.CrashedText = D.Text;
    State.CrashFindings = {crashFinding(File, *Crash, "", Index)};
    return State.CrashFindings;
  }
  if (Out.Cancelled) {
    Stale = true;
    return {};
  }
  Commands.recordIncludes(File, Out.Headers);
  std::lock_guard<std::mutex> Guard(Lock);
  State.Headers = std::move(Out.Headers);
  return std::move(Out.Findings);
}

void Server::analyse(const std::string &File,
                     const std::atomic<bool> &Cancelled) {
  std::shared_ptr<FileState> State;
  auto R = std::make_shared<Result>();
  std::shared_ptr<const plan::VerdictsDocument> VerdictsNow;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = States.find(File);
    if (It == States.end())
      return;
    State = It->second;
    R->Generation = Generation;
    VerdictsNow = Verdicts;
  }
  DocumentStore::Snapshot Snapshot = Documents.snapshot();
  auto Mine = Snapshot.Documents.find(File);
  if (Mine == Snapshot.Documents.end())
    return;
  R->Version = Mine->second.Version;
  auto Start = std::chrono::steady_clock::now();
  bool Stale = false;
  std::vector<Finding> Findings =
      findingsOf(*State, File, Snapshot, Cancelled, Stale);
  double Seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
#if defined(__GLIBC__)
  malloc_trim(0); // the AST's memory back to the system, not kept for later
#endif
  if (Stale || Cancelled) {
    log(File + " v" + std::to_string(R->Version) + ": cancelled after " +
        std::to_string(Seconds) + " s, a newer edit came");
    return;
  }
  if (VerdictsNow) {
    namePlans(Findings, Options.SourceRoot);
    mergeVerdicts(Findings, *VerdictsNow, /*Strict=*/false);
  }
  std::map<std::string, std::string> Texts;
  for (const auto &[Path, D] : Snapshot.Documents)
    Texts[Path] = D.Text;
  R->Texts = std::make_shared<SourceTexts>(std::move(Texts));
  R->Shown = showFindings(Findings, File, *R->Texts, Encoding);
  log(File + " v" + std::to_string(R->Version) + ": " +
      std::to_string(R->Shown.size()) + " diagnostics in " +
      std::to_string(Seconds) + " s (preamble " +
      std::to_string(State->Analyzer->preambleBytes() >> 20) + " MiB)");
  deliver(File, std::move(R));
}

void Server::deliver(const std::string &File, std::shared_ptr<Result> R) {
  std::lock_guard<std::mutex> Guard(Lock);
  std::optional<Document> D = Documents.get(File);
  auto It = States.find(File);
  // A result for a text or a configuration that is no longer current is
  // never shown.
  if (!D || It == States.end() || D->Version != R->Version ||
      R->Generation != Generation)
    return;
  R->Id = std::to_string(++NextResultId);
  It->second->Latest = R;
  for (auto P = PendingPulls.begin(); P != PendingPulls.end();) {
    if (P->File != File) {
      ++P;
      continue;
    }
    reply(P->Id, pullReport(*R, P->PreviousResultId));
    P = PendingPulls.erase(P);
  }
  if (ClientPulls)
    return;
  json Items = json::array();
  for (const ShownFinding &S : R->Shown)
    Items.push_back(S.Diagnostic);
  notify("textDocument/publishDiagnostics", {{"uri", D->Uri},
                                             {"version", D->Version},
                                             {"diagnostics", std::move(Items)}});
}

} // namespace torch_tidy::lsp
