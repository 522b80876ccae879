//===--- SharedPchBuild.cpp - Precompiling a shared prefix ----------------===//

#include "SharedPchBuild.h"
#include "ClangToolSetup.h"
#include "InputFiles.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

using namespace clang;
using namespace clang::tooling;

namespace {

/// The headers the prefix header includes itself.
class DirectIncludes : public PPCallbacks {
public:
  DirectIncludes(const SourceManager &SM, std::vector<FileEntryRef> &Found)
      : SM(SM), Found(Found) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef,
                          bool, CharSourceRange, OptionalFileEntryRef File,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File && SM.isInMainFile(HashLoc))
      Found.push_back(*File);
  }

private:
  const SourceManager &SM;
  std::vector<FileEntryRef> &Found;
};

struct BuildState {
  std::shared_ptr<InputFiles> Inputs;
  std::vector<std::string> Unguarded;
  bool Ran = false;
};

class PrefixAction : public GeneratePCHAction {
public:
  explicit PrefixAction(BuildState &State) : State(State) {}

protected:
  bool PrepareToExecuteAction(CompilerInstance &Compiler) override {
    auto Directory = Compiler.getFileManager()
                         .getVirtualFileSystem()
                         .getCurrentWorkingDirectory();
    State.Inputs =
        std::make_shared<InputFiles>(Directory ? *Directory : std::string());
    Compiler.addDependencyCollector(State.Inputs);
    return GeneratePCHAction::PrepareToExecuteAction(Compiler);
  }

  bool BeginSourceFileAction(CompilerInstance &Compiler) override {
    if (!GeneratePCHAction::BeginSourceFileAction(Compiler))
      return false;
    Compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<DirectIncludes>(Compiler.getSourceManager(), Included));
    return true;
  }

  void EndSourceFileAction() override {
    HeaderSearch &Search = getCompilerInstance().getPreprocessor().getHeaderSearchInfo();
    for (FileEntryRef File : Included)
      if (!Search.isFileMultipleIncludeGuarded(File))
        State.Unguarded.push_back(File.getName().str());
    State.Ran = true;
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  BuildState &State;
  std::vector<FileEntryRef> Included;
};

class PrefixActionFactory : public FrontendActionFactory {
public:
  PrefixActionFactory(std::string PrefixHeader, std::string Output,
                      BuildState &State)
      : PrefixHeader(std::move(PrefixHeader)), Output(std::move(Output)),
        State(State) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<PrefixAction>(State);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // The file's own invocation, as CheckRunner runs it, with the prefix as
    // its input: a header of the file's language.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    FrontendOptions &Frontend = Invocation->getFrontendOpts();
    if (Frontend.Inputs.size() != 1)
      return false;
    InputKind Kind = Frontend.Inputs.front().getKind().getHeader();
    Frontend.Inputs = {FrontendInputFile(PrefixHeader, Kind)};
    Frontend.ProgramAction = frontend::GeneratePCH;
    Frontend.OutputFile = Output;
    // Sizes and contents decide whether the header is still valid, not times:
    // a checkout that rewrites files unchanged keeps it.
    Frontend.IncludeTimestamps = false;
    Invocation->getLangOpts().PCHInstantiateTemplates = true;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  std::string PrefixHeader, Output;
  BuildState &State;
};

} // namespace

llvm::Expected<std::vector<std::string>>
precompilePrefix(tidy::ClangTidyContext &Context,
                 const CompilationDatabase &Database, const std::string &File,
                 const std::string &PrefixHeader, const std::string &Output) {
  ClangTool Tool(Database, {File});
  configureTool(Tool, Context);
  auto Options = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(llvm::errs(), Options.get());
  Tool.setDiagnosticConsumer(&Printer);
  BuildState State;
  PrefixActionFactory Factory(PrefixHeader, Output, State);
  if (Tool.run(&Factory) != 0 || !State.Ran)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot precompile the headers of '%s'",
                                   PrefixHeader.c_str());
  if (!State.Unguarded.empty())
    return llvm::createStringError(
        std::errc::invalid_argument,
        "'%s' is not guarded against a second inclusion",
        State.Unguarded.front().c_str());
  return std::move(State.Inputs->Read);
}

} // namespace torch_tidy
