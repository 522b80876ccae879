//===--- Server.cpp - torch-tidy's language server ------------------------===//

#include "Server.h"
#include "CodeActions.h"
#include "Confirmation.h"
#include "Version.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace torch_tidy::lsp {

using nlohmann::json;

/// A request's parameters that the server cannot use; answered with
/// InvalidParams, as the JSON accessors' errors are.
struct InvalidParams : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Server::Server(ServerOptions Opts, Transport &Channel)
    : Options(std::move(Opts)), Channel(Channel),
      Commands(Options.BuildPath, std::move(Options.FixedDatabase)) {
  Analyses = std::make_unique<Scheduler>(
      [this](const std::string &File, const std::atomic<bool> &Cancelled) {
        analyse(File, Cancelled);
      },
      Options.Jobs, Options.Debounce);
}

Server::~Server() { Analyses.reset(); }

llvm::Error Server::loadVerdicts() {
  if (Options.VerdictsFile.empty())
    return llvm::Error::success();
  auto Read = readVerdictsFile(Options.VerdictsFile);
  if (!Read)
    return Read.takeError();
  std::lock_guard<std::mutex> Guard(Lock);
  Verdicts = std::make_shared<plan::VerdictsDocument>(std::move(*Read));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

int Server::run() {
  while (true) {
    std::string Body, Problem;
    switch (Channel.read(Body, Problem)) {
    case Transport::Read::End:
      log("the input is closed");
      return ShutdownRequested ? 0 : 1;
    case Transport::Read::Malformed:
      log("malformed message: " + Problem);
      replyError(nullptr, error_code::ParseError, Problem);
      continue;
    case Transport::Read::Message:
      break;
    }
    json Message = json::parse(Body, nullptr, /*allow_exceptions=*/false);
    if (Message.is_discarded()) {
      log("a message that is not JSON: " + Body.substr(0, 200));
      replyError(nullptr, error_code::ParseError, "the message is not JSON");
      continue;
    }
    if (!handle(Message))
      return ShutdownRequested ? 0 : 1;
  }
}

bool Server::handle(const json &Message) {
  json Id = Message.is_object() ? Message.value("id", json()) : json();
  if (!Message.is_object() || Message.value("jsonrpc", json()) != "2.0" ||
      !(Id.is_null() || Id.is_string() || Id.is_number_integer())) {
    replyError(Id.is_string() || Id.is_number_integer() ? Id : json(),
               error_code::InvalidRequest,
               "not a JSON-RPC 2.0 request, notification or response");
    return true;
  }
  if (!Message.contains("method")) {
    if (Message.contains("id") && (Message.contains("result") ||
                                   Message.contains("error")))
      handleResponse(Message);
    else
      replyError(Id, error_code::InvalidRequest, "a message without a method");
    return true;
  }
  if (!Message["method"].is_string()) {
    replyError(Id, error_code::InvalidRequest, "the method is not a string");
    return true;
  }
  std::string Method = Message["method"];
  json Params = Message.value("params", json::object());
  bool IsRequest = Message.contains("id");
  if (Method == "exit")
    return false;
  try {
    if (IsRequest)
      handleRequest(Id, Method, Params);
    else
      handleNotification(Method, Params);
  } catch (const std::exception &E) {
    // A parameter of the wrong type or missing (the handlers read them with
    // nlohmann's checked accessors), or not usable (InvalidParams).
    std::string Problem = "invalid parameters of '" + Method + "': " + E.what();
    log(Problem);
    if (IsRequest)
      replyError(Id, error_code::InvalidParams, Problem);
  }
  return true;
}

void Server::handleRequest(const json &Id, const std::string &Method,
                           const json &Params) {
  if (Method == "initialize") {
    if (Initialized)
      return replyError(Id, error_code::InvalidRequest,
                        "the server is already initialized");
    return reply(Id, initialize(Params));
  }
  if (!Initialized)
    return replyError(Id, error_code::ServerNotInitialized,
                      "the server is not initialized yet");
  if (ShutdownRequested)
    return replyError(Id, error_code::InvalidRequest,
                      "the server is shutting down");
  if (Method == "shutdown") {
    ShutdownRequested = true;
    Analyses->cancelAll();
    return reply(Id, nullptr);
  }
  if (Method == "textDocument/diagnostic")
    return pullDiagnostics(Id, Params);
  if (Method == "textDocument/codeAction")
    return reply(Id, codeAction(Params));
  replyError(Id, error_code::MethodNotFound, "unsupported method '" + Method + "'");
}

void Server::handleNotification(const std::string &Method, const json &Params) {
  if (Method == "$/cancelRequest")
    return cancelRequest(Params);
  if (!Initialized || ShutdownRequested)
    return; // dropped, as LSP says
  if (Method == "initialized")
    return initialized();
  if (Method == "textDocument/didOpen")
    return didOpen(Params);
  if (Method == "textDocument/didChange")
    return didChange(Params);
  if (Method == "textDocument/didSave")
    return didSave(Params);
  if (Method == "textDocument/didClose")
    return didClose(Params);
  if (Method == "workspace/didChangeConfiguration")
    return reloadEverything();
  if (Method == "workspace/didChangeWatchedFiles")
    return didChangeWatchedFiles(Params);
  // Others ($/setTrace, ...) are ignored, as LSP allows.
}

void Server::handleResponse(const json &Message) {
  const json &Id = Message["id"];
  if (!Id.is_number_integer())
    return;
  std::function<void(const json &, bool)> OnReply;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Waiting.find(Id.get<int64_t>());
    if (It == Waiting.end())
      return;
    OnReply = std::move(It->second);
    Waiting.erase(It);
  }
  bool Failed = Message.contains("error");
  OnReply(Failed ? Message["error"] : Message["result"], Failed);
}

void Server::reply(const json &Id, json Result) {
  Channel.send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Server::replyError(const json &Id, int Code, const std::string &Text) {
  Channel.send({{"jsonrpc", "2.0"},
                {"id", Id},
                {"error", {{"code", Code}, {"message", Text}}}});
}

void Server::notify(const std::string &Method, json Params) {
  Channel.send(
      {{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Server::request(const std::string &Method, json Params,
                     std::function<void(const json &, bool)> OnReply) {
  int64_t Id;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Id = ++NextRequestId;
    Waiting[Id] = std::move(OnReply);
  }
  Channel.send({{"jsonrpc", "2.0"},
                {"id", Id},
                {"method", Method},
                {"params", std::move(Params)}});
}

//===----------------------------------------------------------------------===//
// Requests and notifications
//===----------------------------------------------------------------------===//

/// The value at \p Path ("a.b.c") of \p Object, null when absent.
static json lookup(const json &Object, llvm::StringRef Path) {
  const json *Node = &Object;
  for (llvm::StringRef Key : llvm::split(Path, '.')) {
    if (!Node->is_object() || !Node->contains(Key.str()))
      return json();
    Node = &(*Node)[Key.str()];
  }
  return *Node;
}

json Server::initialize(const json &Params) {
  const json &Client = Params.value("capabilities", json::object());
  Encoding = chooseEncoding(Client);
  ClientPulls = lookup(Client, "textDocument.diagnostic").is_object();
  ClientShowsProgress = lookup(Client, "window.workDoneProgress") == true;
  ClientTakesDocumentChanges =
      lookup(Client, "workspace.workspaceEdit.documentChanges") == true;
  ClientWatchesFiles =
      lookup(Client, "workspace.didChangeWatchedFiles.dynamicRegistration") == true;
  ClientRefreshesPulls =
      lookup(Client, "workspace.diagnostics.refreshSupport") == true;
  // Plan ids are relative to where the verdicts' run was: the project's
  // root, unless --source-root says otherwise.
  if (Options.SourceRoot.empty()) {
    json Root = Params.value("rootUri", json());
    json Folders = Params.value("workspaceFolders", json());
    if (Folders.is_array() && !Folders.empty() && Folders[0].is_object())
      Root = Folders[0].value("uri", Root);
    if (Root.is_string())
      Options.SourceRoot = pathFromUri(Root.get<std::string>()).value_or("");
    if (Options.SourceRoot.empty()) {
      llvm::SmallString<256> Current;
      llvm::sys::fs::current_path(Current);
      Options.SourceRoot = std::string(Current);
    }
  }
  Initialized = true;
  log("initialized: positions in " + encodingName(Encoding) + ", diagnostics " +
      (ClientPulls ? "pulled" : "pushed") + ", source root " +
      Options.SourceRoot);
  json Capabilities = {
      {"positionEncoding", encodingName(Encoding)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"diagnosticProvider",
       {{"identifier", "torch-tidy"},
        {"interFileDependencies", true},
        {"workspaceDiagnostics", false}}}};
  json Result = {{"capabilities", std::move(Capabilities)},
                 {"serverInfo",
                  {{"name", "torch-tidy"}, {"version", TORCH_TIDY_VERSION}}}};
  if (Client.contains("offsetEncoding"))
    Result["offsetEncoding"] = encodingName(Encoding); // clangd's extension
  return Result;
}

void Server::initialized() {
  if (!ClientWatchesFiles)
    return;
  json Watchers = json::array({{{"globPattern", "**/.torch-tidy"}},
                               {{"globPattern", "**/compile_commands.json"}}});
  request("client/registerCapability",
          {{"registrations",
            {{{"id", "torch-tidy-watched-files"},
              {"method", "workspace/didChangeWatchedFiles"},
              {"registerOptions", {{"watchers", std::move(Watchers)}}}}}}},
          [](const json &, bool Failed) {
            if (Failed)
              log("the client did not register the file watchers");
          });
}

static bool isCompileDatabase(llvm::StringRef File) {
  return llvm::sys::path::filename(File) == "compile_commands.json";
}

static bool isTidyConfiguration(llvm::StringRef File) {
  return llvm::sys::path::filename(File) == ".torch-tidy";
}

/// A file whose change changes the analysis of the open files: a
/// .torch-tidy, also unsaved (its text in the editor is what the analyses
/// read), or a compile_commands.json once saved (the server reads it from
/// disk).
static bool isConfiguration(llvm::StringRef File) {
  return isTidyConfiguration(File) || isCompileDatabase(File);
}

/// Whether the server analyses a document: C, C++ and CUDA sources and
/// headers.
static bool isAnalysable(const std::string &LanguageId, llvm::StringRef File) {
  static const char *const Languages[] = {"c", "cpp", "cuda", "cuda-cpp",
                                          "objective-c", "objective-cpp"};
  if (llvm::is_contained(Languages, LanguageId))
    return true;
  static const char *const Extensions[] = {
      ".c",  ".cc",  ".cpp", ".cxx", ".c++", ".C",   ".h",   ".hh",
      ".hpp", ".hxx", ".h++", ".cu", ".cuh", ".inl", ".ipp", ".tpp"};
  return llvm::is_contained(Extensions, llvm::sys::path::extension(File));
}

/// The path of \p Params' `textDocument.uri`; throws (an invalid-params
/// error) when it is not a local file.
static std::string documentPath(const json &Params, std::string *Uri = nullptr) {
  std::string Text = Params.at("textDocument").at("uri").get<std::string>();
  std::optional<std::string> Path = pathFromUri(Text);
  if (!Path)
    throw InvalidParams("'" + Text + "' is not a local file's URI");
  if (Uri)
    *Uri = Text;
  return *Path;
}

void Server::didOpen(const json &Params) {
  const json &Item = Params.at("textDocument");
  Document D;
  D.Path = documentPath(Params, &D.Uri);
  D.Version = Item.value("version", int64_t(0));
  D.Text = Item.at("text").get<std::string>();
  std::string Language = Item.value("languageId", "");
  std::string File = D.Path;
  Documents.open(std::move(D));
  if (isTidyConfiguration(File))
    return configurationChanged(File);
  if (!isAnalysable(Language, File))
    return;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto &State = States[File];
    if (!State)
      State = std::make_shared<FileState>(Options);
  }
  Analyses->schedule(File);
}

void Server::didChange(const json &Params) {
  std::string File = documentPath(Params);
  std::optional<Document> D = Documents.get(File);
  if (!D)
    return log("a change of '" + File + "', which is not open");
  std::string Text = D->Text;
  for (const json &Change : Params.at("contentChanges")) {
    if (llvm::Error Err = applyChange(Text, Change, Encoding)) {
      log("a change of '" + File + "' not applied: " +
          llvm::toString(std::move(Err)));
      return;
    }
  }
  Documents.update(File, Params.at("textDocument").value("version", D->Version),
                   std::move(Text));
  edited(File);
}

void Server::edited(const std::string &File) {
  if (isTidyConfiguration(File))
    return configurationChanged(File);
  bool Open;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Open = States.count(File);
  }
  if (Open)
    Analyses->schedule(File);
}

void Server::didSave(const json &Params) {
  std::string File = documentPath(Params);
  if (isConfiguration(File))
    return configurationChanged(File);
  // The open files that include it read it from disk unless it is open:
  // analyse them again (their preambles notice whether it changed).
  std::vector<std::string> Includers;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[Other, State] : States)
      if (Other != File && llvm::is_contained(State->Headers, File))
        Includers.push_back(Other);
  }
  for (const std::string &Other : Includers)
    Analyses->schedule(Other);
}

void Server::didClose(const json &Params) {
  std::string Uri;
  std::string File = documentPath(Params, &Uri);
  Documents.close(File);
  Analyses->remove(File);
  std::vector<PendingPull> Unanswered;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    bool WasAnalysed = States.erase(File);
    auto Closed = [&](const PendingPull &P) { return P.File == File; };
    std::copy_if(PendingPulls.begin(), PendingPulls.end(),
                 std::back_inserter(Unanswered), Closed);
    llvm::erase_if(PendingPulls, Closed);
    // Under the lock, so that no analysis publishes after this.
    if (WasAnalysed && !ClientPulls)
      notify("textDocument/publishDiagnostics",
             {{"uri", Uri}, {"diagnostics", json::array()}});
  }
  for (const PendingPull &P : Unanswered)
    reply(P.Id, {{"kind", "full"}, {"items", json::array()}});
  if (isTidyConfiguration(File))
    configurationChanged(File); // its unsaved text no longer counts
}

void Server::didChangeWatchedFiles(const json &Params) {
  std::optional<std::string> Changed;
  for (const json &Change : Params.at("changes"))
    if (std::optional<std::string> File =
            pathFromUri(Change.at("uri").get<std::string>()))
      if (isConfiguration(*File) && (!Changed || isCompileDatabase(*File)))
        Changed = *File;
  if (Changed)
    configurationChanged(*Changed);
}

void Server::configurationChanged(const std::string &File) {
  log(File + " changed");
  if (isCompileDatabase(File))
    Commands.reload();
  reanalyseAll(); // each analysis reads its .torch-tidy
}

void Server::reloadEverything() {
  log("reloading the configuration, the compile databases and the verdicts");
  Commands.reload();
  if (llvm::Error Err = loadVerdicts()) {
    std::string Problem = llvm::toString(std::move(Err));
    log(Problem);
    notify("window/showMessage",
           {{"type", 1}, {"message", "torch-tidy: " + Problem}});
  }
  reanalyseAll();
}

void Server::reanalyseAll() {
  std::vector<std::string> Files;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    ++Generation;
    for (auto &[File, State] : States) {
      State->CrashedText.reset(); // the configuration may avoid the crash
      Files.push_back(File);
    }
  }
  for (const std::string &File : Files)
    Analyses->schedule(File);
  if (ClientPulls && ClientRefreshesPulls)
    request("workspace/diagnostic/refresh", nullptr, [](const json &, bool) {});
}

void Server::cancelRequest(const json &Params) {
  json Id = Params.value("id", json());
  std::optional<PendingPull> Cancelled;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = llvm::find_if(PendingPulls,
                            [&](const PendingPull &P) { return P.Id == Id; });
    if (It == PendingPulls.end())
      return; // answered already, or never asked
    Cancelled = *It;
    PendingPulls.erase(It);
  }
  replyError(Cancelled->Id, error_code::RequestCancelled,
             "the request was cancelled");
}

json Server::pullReport(const Result &R, const std::string &PreviousId) {
  if (!PreviousId.empty() && PreviousId == R.Id)
    return {{"kind", "unchanged"}, {"resultId", R.Id}};
  json Items = json::array();
  for (const ShownFinding &S : R.Shown)
    Items.push_back(S.Diagnostic);
  return {{"kind", "full"}, {"resultId", R.Id}, {"items", std::move(Items)}};
}

void Server::pullDiagnostics(const json &Id, const json &Params) {
  std::string File = documentPath(Params);
  std::string Previous = Params.value("previousResultId", "");
  std::lock_guard<std::mutex> Guard(Lock);
  std::optional<Document> D = Documents.get(File);
  auto It = States.find(File);
  if (!D || It == States.end())
    return reply(Id, {{"kind", "full"}, {"items", json::array()}});
  const std::shared_ptr<const Result> &Latest = It->second->Latest;
  if (Latest && Latest->Version == D->Version && Latest->Generation == Generation)
    return reply(Id, pullReport(*Latest, Previous));
  // Answered when the analysis of this text is done.
  PendingPulls.push_back({Id, File, Previous});
}

json Server::codeAction(const json &Params) {
  std::string Uri;
  std::string File = documentPath(Params, &Uri);
  std::optional<Document> D = Documents.get(File);
  std::shared_ptr<const Result> Latest;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = States.find(File);
    if (It != States.end())
      Latest = It->second->Latest;
  }
  // Fixes computed on another text would edit the wrong places.
  if (!D || !Latest || Latest->Version != D->Version)
    return json::array();
  ActionTarget Target;
  Target.File = File;
  Target.Uri = Uri;
  Target.Version = D->Version;
  Target.Encoding = Encoding;
  Target.DocumentChanges = ClientTakesDocumentChanges;
  return codeActions(Latest->Shown, *Latest->Texts, Target, Params);
}

} // namespace torch_tidy::lsp
