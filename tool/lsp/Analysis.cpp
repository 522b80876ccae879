//===--- Analysis.cpp - torch-tidy's rules on an open file ----------------===//

#include "Analysis.h"
#include "ClangToolSetup.h"
#include "CompileCommands.h"
#include "PlanCollector.h"
#include "UserCodeScope.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/StringExtras.h"

namespace torch_tidy::lsp {

using namespace clang;
using namespace clang::tidy;

namespace {

/// The checks, walking what the command line's do (UserCodeScope.h), and
/// stopping at the next top-level declaration once the analysis is stale.
class CancellableConsumer : public MultiplexConsumer {
public:
  CancellableConsumer(std::unique_ptr<ASTConsumer> Checks,
                      const std::atomic<bool> &Cancelled)
      : MultiplexConsumer(consumers(std::move(Checks))), Cancelled(Cancelled) {}

  bool HandleTopLevelDecl(DeclGroupRef D) override {
    if (Cancelled)
      return false; // the parser stops
    return MultiplexConsumer::HandleTopLevelDecl(D);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Cancelled)
      MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  consumers(std::unique_ptr<ASTConsumer> Checks) {
    std::vector<std::unique_ptr<ASTConsumer>> All;
    All.push_back(std::move(Checks));
    return All;
  }

  const std::atomic<bool> &Cancelled;
};

/// For each file the parse enters, the offset of the main file's #include
/// that leads to it: where a compiler error in a header is shown.
class IncludeLines : public PPCallbacks {
public:
  IncludeLines(const SourceManager &SM, std::string Directory,
               std::map<std::string, unsigned> &Lines)
      : SM(SM), Directory(std::move(Directory)), Lines(Lines) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    FileID Entered = SM.getFileID(Loc);
    SourceLocation Include = SM.getIncludeLoc(Entered);
    OptionalFileEntryRef File = SM.getFileEntryRefForID(Entered);
    if (Include.isInvalid() || !File)
      return;
    std::optional<unsigned> Offset;
    if (SM.getFileID(Include) == SM.getMainFileID()) {
      Offset = SM.getFileOffset(Include);
    } else if (OptionalFileEntryRef Includer =
                   SM.getFileEntryRefForID(SM.getFileID(Include))) {
      auto Known = Lines.find(absoluteIn(Directory, Includer->getName()));
      if (Known != Lines.end())
        Offset = Known->second;
    }
    if (Offset)
      Lines.try_emplace(absoluteIn(Directory, File->getName()), *Offset);
  }

private:
  const SourceManager &SM;
  std::string Directory;
  std::map<std::string, unsigned> &Lines;
};

class TidyAction : public ASTFrontendAction {
public:
  TidyAction(ClangTidyASTConsumerFactory &Factory, ClangTidyContext &Context,
             const std::atomic<bool> &Cancelled,
             std::map<std::string, unsigned> &Includes)
      : Factory(Factory), Context(Context), Cancelled(Cancelled),
        Includes(Includes) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    llvm::ErrorOr<std::string> Directory =
        Compiler.getVirtualFileSystem().getCurrentWorkingDirectory();
    Compiler.getPreprocessor().addPPCallbacks(std::make_unique<IncludeLines>(
        Compiler.getSourceManager(), Directory ? *Directory : "", Includes));
    return std::make_unique<CancellableConsumer>(
        limitToUserCode(Factory.createASTConsumer(Compiler, File),
                        Context.getOptions(), Parsed),
        Cancelled);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  ClangTidyContext &Context;
  const std::atomic<bool> &Cancelled;
  std::map<std::string, unsigned> &Includes;
  bool Parsed = false; // set by UserCodeScope; read by runChecks() only
};

/// The compiler invocation of \p Args, which compile \p File, as clang-tidy
/// runs it; null, and the driver's \p Problem, when there is none.
std::shared_ptr<CompilerInvocation>
invocationOf(const std::vector<std::string> &Args, const std::string &File,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             std::string &Problem) {
  std::vector<const char *> ArgPointers;
  for (const std::string &Arg : Args)
    ArgPointers.push_back(Arg.c_str());
  auto *DriverErrors = new TextDiagnosticBuffer;
  CreateInvocationOptions Creation;
  Creation.Diags = CompilerInstance::createDiagnostics(new DiagnosticOptions,
                                                       DriverErrors);
  Creation.VFS = FS;
  Creation.RecoverOnError = true;
  std::shared_ptr<CompilerInvocation> Invocation =
      createInvocation(ArgPointers, Creation);
  if (!Invocation || Invocation->getFrontendOpts().Inputs.size() != 1) {
    Problem = DriverErrors->err_begin() != DriverErrors->err_end()
                  ? DriverErrors->err_begin()->second
                  : "it does not compile exactly one file";
    return nullptr;
  }
  // The main file by its absolute name, whatever the command calls it:
  // names relative to the command's directory would be resolved against the
  // server's by whoever reads them later (the replay plans' recorder).
  FrontendInputFile &Input = Invocation->getFrontendOpts().Inputs[0];
  Input = FrontendInputFile(File, Input.getKind(), Input.isSystem());
  // As clang-tidy's own runs: free the AST at the end, and define
  // __clang_analyzer__.
  Invocation->getFrontendOpts().DisableFree = false;
  Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
  Invocation->getPreprocessorOpts().RetainRemappedFileBuffers = true;
  // No "N warnings generated." on the server's log after each analysis.
  Invocation->getDiagnosticOpts().ShowCarets = false;
  return Invocation;
}

/// An error finding at the top of \p File: its command cannot be used.
Finding commandError(const std::string &File, const std::string &Problem) {
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.IsError = true;
  F.Where.File = File;
  F.Message = "the compile command of this file cannot be used: " + Problem;
  return F;
}

} // namespace

AnalysisOutput FileAnalyzer::run(const AnalysisInputs &In,
                                 const std::atomic<bool> &Cancelled,
                                 llvm::function_ref<void()> BeforePreambleBuild) {
  AnalysisOutput Out;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS = In.Files;
  FS->setCurrentWorkingDirectory(In.Command.Directory);
  PlanCollector Plans; // the checks' recorder on this thread
  ClangTidyContext Context(Options.create(FS));
  SourceIndex Index;
  for (const auto &[Path, Text] : In.OpenTexts)
    Index.useContents(Path, Text);

  std::vector<std::string> Args =
      analysedCommandLine(In.Command, Context.getOptionsForFile(In.File));
  std::string Problem;
  std::shared_ptr<CompilerInvocation> Invocation =
      invocationOf(Args, In.File, FS, Problem);
  if (!Invocation) {
    Out.Findings.push_back(commandError(In.File, Problem));
    Index.locate(Out.Findings.back().Where);
    return Out;
  }

  std::unique_ptr<llvm::MemoryBuffer> Main = llvm::MemoryBuffer::getMemBufferCopy(
      In.Text, Invocation->getFrontendOpts().Inputs[0].getFile());
  const PrecompiledPreamble *Built = Preamble.get(
      *Invocation, *Main, FS, llvm::join(Args, "\n"), BeforePreambleBuild);
  Out.Headers = Preamble.headers();
  if (Cancelled) {
    Out.Cancelled = true;
    return Out;
  }

  ClangTidyDiagnosticConsumer Diagnostics(Context);
  DiagnosticsEngine Engine(new DiagnosticIDs, new DiagnosticOptions,
                           &Diagnostics, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Engine);
  ClangTidyASTConsumerFactory Factory(Context, FS);
  std::map<std::string, unsigned> Includes; // header -> its #include here
  {
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> CompilerFS = FS;
    if (Built)
      Built->AddImplicitPreamble(*Invocation, CompilerFS, Main.get());
    else
      Invocation->getPreprocessorOpts().addRemappedFile(
          Invocation->getFrontendOpts().Inputs[0].getFile(), Main.get());
    CompilerInstance Compiler(std::make_shared<PCHContainerOperations>());
    Compiler.setInvocation(std::move(Invocation));
    Compiler.createDiagnostics(&Diagnostics, /*ShouldOwnClient=*/false);
    Compiler.createFileManager(CompilerFS);
    TidyAction Action(Factory, Context, Cancelled, Includes);
    Compiler.ExecuteAction(Action);
  }
  if (Cancelled) {
    Out.Cancelled = true;
    return Out;
  }
  for (const ClangTidyError &Error : Diagnostics.take()) {
    Finding F = toFinding(Error, Index);
    auto Include = Includes.find(F.Where.File);
    if (F.IsError && Include != Includes.end()) {
      Span Line{In.File, Include->second};
      Index.locate(Line);
      F.Notes.push_back({Line, "included here", {}});
    }
    Out.Findings.push_back(std::move(F));
  }
  Plans.attachTo(Out.Findings);
  sortAndDeduplicate(Out.Findings);
  return Out;
}

} // namespace torch_tidy::lsp
