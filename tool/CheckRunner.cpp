//===--- CheckRunner.cpp - clang-tidy's engine on one file ----------------===//

#include "CheckRunner.h"
#include "ClangToolSetup.h"
#include "InputFiles.h"
#include "UserCodeScope.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;

namespace {

struct RunState {
  const CheckRunOptions &Options;
  /// One per compile command of the file.
  std::vector<std::shared_ptr<InputFiles>> Inputs;
  bool Parsed = false;
};

class CheckAction : public ASTFrontendAction {
public:
  CheckAction(ClangTidyASTConsumerFactory &Factory, ClangTidyContext &Context,
              RunState &State)
      : Factory(Factory), Context(Context), State(State) {}

  bool PrepareToExecuteAction(CompilerInstance &Compiler) override {
    auto Directory = Compiler.getFileManager()
                         .getVirtualFileSystem()
                         .getCurrentWorkingDirectory();
    State.Inputs.push_back(
        std::make_shared<InputFiles>(Directory ? *Directory : std::string()));
    Compiler.addDependencyCollector(State.Inputs.back());
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 llvm::StringRef File) override {
    auto Checks = Factory.createASTConsumer(Compiler, File);
    return limitToUserCode(std::move(Checks), Context.getOptions(),
                           State.Parsed);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  ClangTidyContext &Context;
  RunState &State;
};

class CheckActionFactory : public FrontendActionFactory {
public:
  CheckActionFactory(ClangTidyContext &Context,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                     RunState &State)
      : Context(Context), Factory(Context, std::move(FS)), State(State) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CheckAction>(Factory, Context, State);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: the code sees __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (!State.Options.SharedPch.empty())
      Invocation->getPreprocessorOpts().ImplicitPCHInclude =
          State.Options.SharedPch;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  ClangTidyContext &Context;
  ClangTidyASTConsumerFactory Factory;
  RunState &State;
};

} // namespace

CheckRun runChecks(ClangTidyContext &Context,
                   const CompilationDatabase &Database, const std::string &File,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                   const CheckRunOptions &Options) {
  ClangTool Tool(Database, {File}, std::make_shared<PCHContainerOperations>(),
                 FS);
  configureTool(Tool, Context);
  ClangTidyDiagnosticConsumer Diagnostics(Context, nullptr, true,
                                          Options.FixNotes);
  DiagnosticsEngine Engine(new DiagnosticIDs(), new DiagnosticOptions(),
                           &Diagnostics, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Engine);
  Tool.setDiagnosticConsumer(&Diagnostics);

  RunState State{Options};
  CheckActionFactory Factory(Context, FS, State);
  Tool.run(&Factory);

  CheckRun Run;
  Run.Errors = Diagnostics.take();
  Run.PchRejected = !Options.SharedPch.empty() && !State.Parsed;
  // The shared header's own files (its prefix) are not the file's inputs:
  // the findings are the same without it.
  llvm::StringRef PchDirectory = llvm::sys::path::parent_path(Options.SharedPch);
  for (const auto &Inputs : State.Inputs) {
    llvm::append_range(Run.Read, Inputs->Read);
    for (const std::string &Input : Inputs->ReadThroughPch)
      if (PchDirectory.empty() ||
          llvm::sys::path::parent_path(Input) != PchDirectory)
        Run.ReadThroughPch.push_back(Input);
  }
  return Run;
}

} // namespace torch_tidy
