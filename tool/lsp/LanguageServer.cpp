//===--- LanguageServer.cpp - torch-tidy --lsp ----------------------------===//

#include "LanguageServer.h"
#include "CrashContainment.h"
#include "Server.h"
#include "Transport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>

namespace torch_tidy {

namespace cl = llvm::cl;

cl::OptionCategory &languageServerCategory() {
  static cl::OptionCategory Category("torch-tidy options for editors");
  return Category;
}

static cl::opt<bool> Lsp("lsp", cl::desc(R"(
Serve the Language Server Protocol on stdin and stdout, for editors: findings
on unsaved text as you type, with quick fixes (see docs/editors.md). -p,
'--' flags, --checks, --config, --header-filter, --verdicts, --source-root
and -j (analyses at once) apply as on the command line.)"),
                         cl::init(false), cl::cat(languageServerCategory()));
static cl::opt<unsigned> Debounce("lsp-debounce", cl::desc(R"(
Milliseconds without an edit before a file is analysed again (default 300).)"),
                                  cl::init(300), cl::value_desc("ms"),
                                  cl::cat(languageServerCategory()));

bool languageServerRequested() { return Lsp; }

int runLanguageServer(LanguageServerInputs Inputs) {
  auto Fail = [](const llvm::Twine &Message) {
    llvm::errs() << "torch-tidy: error: " << Message << "\n";
    return 1;
  };
  if (llvm::sys::Process::StandardInIsUserInput())
    lsp::log("reading LSP messages from the terminal: an editor starts "
             "torch-tidy --lsp itself (see docs/editors.md)");
  llvm::SmallString<128> PreambleDirectory;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(
          "torch-tidy-preambles", PreambleDirectory))
    return Fail("cannot create a directory for preambles: " + EC.message());

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();
  lsp::enableCrashContainment();

  lsp::ServerOptions Options;
  Options.Configuration = Inputs.Configuration;
  Options.BuildPath = Inputs.BuildPath;
  Options.FixedDatabase = std::move(Inputs.FixedDatabase);
  Options.VerdictsFile = Inputs.VerdictsFile;
  Options.SourceRoot = Inputs.SourceRoot;
  Options.Jobs = Inputs.Jobs ? Inputs.Jobs
                             : llvm::hardware_concurrency().compute_thread_count();
  Options.Debounce = std::chrono::milliseconds(Debounce);
  Options.PreambleDirectory = std::string(PreambleDirectory);

  lsp::Transport Channel(stdin, stdout);
  auto Server = std::make_unique<lsp::Server>(std::move(Options), Channel);
  if (llvm::Error Err = Server->loadVerdicts()) {
    llvm::sys::fs::remove_directories(PreambleDirectory);
    return Fail(llvm::toString(std::move(Err)));
  }
  lsp::log("torch-tidy language server, preambles in " + PreambleDirectory);
  int Status = Server->run();
  // An analysis may still be building a preamble, which cannot be
  // interrupted: the process ends without waiting for it (or destroying the
  // server), its files removed first.
  llvm::sys::fs::remove_directories(PreambleDirectory);
  lsp::log("exit " + llvm::Twine(Status));
  std::fflush(stdout);
  std::_Exit(Status);
}

} // namespace torch_tidy
