//===--- Server.h - torch-tidy's language server ----------------*- C++ -*-===//
//
// The messages of LSP 3.17 that torch-tidy answers: the lifecycle
// (initialize, shutdown, exit), the editor's documents (open, change, save,
// close; their unsaved text is what is analysed), diagnostics pushed
// (publishDiagnostics, for clients without pull) or pulled
// (textDocument/diagnostic), quick fixes (codeAction), and reloading the
// configuration. Requests are read on one thread; analyses run on the
// scheduler's.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_SERVER_H
#define TORCH_TIDY_TOOL_LSP_SERVER_H

#include "Analysis.h"
#include "CompileCommands.h"
#include "Configuration.h"
#include "Diagnostics.h"
#include "DocumentStore.h"
#include "Scheduler.h"
#include "Transport.h"
#include "runtime/Verdict.h"
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace torch_tidy::lsp {

struct ServerOptions {
  const OptionsFactory *Configuration = nullptr;
  std::string BuildPath; // -p
  std::unique_ptr<clang::tooling::CompilationDatabase> FixedDatabase; // '--'
  std::string VerdictsFile; // --verdicts
  std::string SourceRoot;   // --source-root; else the workspace's root
  unsigned Jobs = 1;        // analyses at once
  std::chrono::milliseconds Debounce{0};
  std::string PreambleDirectory; // where preambles are stored
};

class Server {
public:
  Server(ServerOptions Options, Transport &Channel);
  ~Server();

  /// Reads the verdicts file; an error is the command line's to report.
  llvm::Error loadVerdicts();

  /// Serves until `exit` or the end of the input; returns the exit status
  /// (0 after a `shutdown`).
  int run();

private:
  /// The latest analysis of an open file that is current.
  struct Result {
    int64_t Version = 0;
    uint64_t Generation = 0;
    std::string Id;
    std::shared_ptr<SourceTexts> Texts;
    std::vector<ShownFinding> Shown;
  };
  struct FileState {
    explicit FileState(const ServerOptions &Options)
        : Analyzer(std::make_unique<FileAnalyzer>(*Options.Configuration,
                                                  Options.PreambleDirectory)) {}
    /// Used by the file's analysis thread only.
    std::unique_ptr<FileAnalyzer> Analyzer;
    /// The text whose analysis crashed, and what it found then: the same text
    /// is not analysed again.
    std::optional<std::string> CrashedText;
    std::vector<Finding> CrashFindings;
    // Under Server::Lock.
    std::shared_ptr<const Result> Latest;
    std::vector<std::string> Headers;
  };
  struct PendingPull {
    nlohmann::json Id;
    std::string File, PreviousResultId;
  };

  // Messages.
  bool handle(const nlohmann::json &Message); // false on `exit`
  void handleRequest(const nlohmann::json &Id, const std::string &Method,
                     const nlohmann::json &Params);
  void handleNotification(const std::string &Method,
                          const nlohmann::json &Params);
  void handleResponse(const nlohmann::json &Message);
  void reply(const nlohmann::json &Id, nlohmann::json Result);
  void replyError(const nlohmann::json &Id, int Code, const std::string &Text);
  void notify(const std::string &Method, nlohmann::json Params);
  void request(const std::string &Method, nlohmann::json Params,
               std::function<void(const nlohmann::json &Result, bool Failed)>
                   OnReply);

  // Requests and notifications.
  nlohmann::json initialize(const nlohmann::json &Params);
  void initialized();
  void didOpen(const nlohmann::json &Params);
  void didChange(const nlohmann::json &Params);
  void didSave(const nlohmann::json &Params);
  void didClose(const nlohmann::json &Params);
  void didChangeWatchedFiles(const nlohmann::json &Params);
  void pullDiagnostics(const nlohmann::json &Id, const nlohmann::json &Params);
  nlohmann::json codeAction(const nlohmann::json &Params);
  void cancelRequest(const nlohmann::json &Params);

  // Analyses.
  void analyse(const std::string &File, const std::atomic<bool> &Cancelled);
  std::vector<Finding> findingsOf(FileState &State, const std::string &File,
                                  const DocumentStore::Snapshot &Snapshot,
                                  const std::atomic<bool> &Cancelled,
                                  bool &Stale);
  void deliver(const std::string &File, std::shared_ptr<Result> R);
  nlohmann::json pullReport(const Result &R, const std::string &PreviousId);
  void edited(const std::string &File);
  /// A .torch-tidy or compile_commands.json changed (saved or not).
  void configurationChanged(const std::string &File);
  /// workspace/didChangeConfiguration: the configuration, the compile
  /// databases and the verdicts are read again.
  void reloadEverything();
  /// Every open file, under a new generation of the configuration.
  void reanalyseAll();
  std::string startProgress(const std::string &File);
  void endProgress(const std::string &Token);

  ServerOptions Options;
  Transport &Channel;
  DocumentStore Documents;
  CompileCommands Commands;
  std::unique_ptr<Scheduler> Analyses;

  // The client's.
  PositionEncoding Encoding = PositionEncoding::Utf16;
  bool Initialized = false, ShutdownRequested = false;
  bool ClientPulls = false, ClientShowsProgress = false,
       ClientTakesDocumentChanges = false, ClientWatchesFiles = false,
       ClientRefreshesPulls = false;

  std::mutex Lock; // what follows
  std::map<std::string, std::shared_ptr<FileState>> States;
  std::vector<PendingPull> PendingPulls;
  uint64_t Generation = 0, NextResultId = 0, NextToken = 0;
  std::shared_ptr<const plan::VerdictsDocument> Verdicts;
  int64_t NextRequestId = 0;
  std::map<int64_t, std::function<void(const nlohmann::json &, bool)>> Waiting;
  struct ProgressState {
    bool Created = false, Ended = false;
    std::string Title;
  };
  std::map<std::string, ProgressState> Progresses;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_SERVER_H
