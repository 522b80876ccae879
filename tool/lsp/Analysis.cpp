//===--- Analysis.cpp - torch-tidy's rules on an open file ----------------===//

#include "Analysis.h"
#include "CompileCommands.h"
#include "PlanCollector.h"
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
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

namespace torch_tidy::lsp {

using namespace clang;
using namespace clang::tidy;

namespace {

/// clang-tidy's consumer, walking only the declarations the user owns, and
/// stopping at the next top-level declaration once the analysis is stale.
class OwnedDeclarationsConsumer : public MultiplexConsumer {
public:
  OwnedDeclarationsConsumer(std::unique_ptr<ASTConsumer> Tidy,
                            ClangTidyContext &Context, std::string ProjectRoot,
                            const std::atomic<bool> &Cancelled)
      : MultiplexConsumer(consumers(std::move(Tidy))), Context(Context),
        ProjectRoot(std::move(ProjectRoot)), Cancelled(Cancelled) {}

  bool HandleTopLevelDecl(DeclGroupRef D) override {
    if (Cancelled)
      return false; // the parser stops
    return MultiplexConsumer::HandleTopLevelDecl(D);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Cancelled)
      return;
    Ctx.setTraversalScope(ownedDeclarations(Ctx));
    MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  consumers(std::unique_ptr<ASTConsumer> Tidy) {
    std::vector<std::unique_ptr<ASTConsumer>> All;
    All.push_back(std::move(Tidy));
    return All;
  }

  /// Whether the checks walk the declarations of header \p Name: one of the
  /// project's (under its root), or one the header filter shows.
  bool owned(StringRef Name) const {
    const ClangTidyOptions &Options = Context.getOptions();
    std::string Path = absoluteIn(Context.getCurrentBuildDirectory(), Name);
    if (!ProjectRoot.empty() && StringRef(Path).starts_with(ProjectRoot))
      return true;
    std::string Shown = Options.HeaderFilterRegex.value_or("");
    std::string Excluded = Options.ExcludeHeaderFilterRegex.value_or("");
    return !Shown.empty() && llvm::Regex(Shown).match(Name) &&
           !(!Excluded.empty() && llvm::Regex(Excluded).match(Name));
  }

  /// The top-level declarations of the main file and of the headers the
  /// user owns, never of system headers (nor LibTorch's, read from the
  /// preamble, unless they are the project's).
  std::vector<Decl *> ownedDeclarations(ASTContext &Ctx) const {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Owned;
    std::map<FileID, bool> HeaderOwned;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
      if (Loc.isInvalid())
        continue;
      if (SM.isInMainFile(Loc)) {
        Owned.push_back(D);
        continue;
      }
      if (SM.isInSystemHeader(Loc))
        continue;
      FileID File = SM.getFileID(Loc);
      auto [It, Inserted] = HeaderOwned.try_emplace(File, false);
      if (Inserted)
        if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File))
          It->second = owned(Entry->getName());
      if (It->second)
        Owned.push_back(D);
    }
    return Owned;
  }

  ClangTidyContext &Context;
  std::string ProjectRoot; // with a trailing separator; empty for none
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
             std::string ProjectRoot, const std::atomic<bool> &Cancelled,
             std::map<std::string, unsigned> &Includes)
      : Factory(Factory), Context(Context), ProjectRoot(std::move(ProjectRoot)),
        Cancelled(Cancelled), Includes(Includes) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    llvm::ErrorOr<std::string> Directory =
        Compiler.getVirtualFileSystem().getCurrentWorkingDirectory();
    Compiler.getPreprocessor().addPPCallbacks(std::make_unique<IncludeLines>(
        Compiler.getSourceManager(), Directory ? *Directory : "", Includes));
    return std::make_unique<OwnedDeclarationsConsumer>(
        Factory.createASTConsumer(Compiler, File), Context, ProjectRoot,
        Cancelled);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  ClangTidyContext &Context;
  std::string ProjectRoot;
  const std::atomic<bool> &Cancelled;
  std::map<std::string, unsigned> &Includes;
};

/// The compile command as clang-tidy runs it: the configuration's extra
/// arguments, no output, no dependency file, no plugins, syntax only.
std::vector<std::string> adjustedArguments(const tooling::CompileCommand &Command,
                                           const ClangTidyOptions &Options) {
  std::vector<std::string> Args = Command.CommandLine;
  if (Options.ExtraArgsBefore && !Args.empty())
    Args.insert(Args.begin() + 1, Options.ExtraArgsBefore->begin(),
                Options.ExtraArgsBefore->end());
  if (Options.ExtraArgs)
    Args.insert(Args.end(), Options.ExtraArgs->begin(),
                Options.ExtraArgs->end());
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangStripOutputAdjuster(),
        tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripDependencyFileAdjuster(),
        tooling::getStripPluginsAdjuster()})
    Args = Adjust(Args, Command.Filename);
  return Args;
}

/// \p Root as a prefix of the paths under it; none for no root, or for '/'
/// (every header would be the project's).
std::string projectPrefix(llvm::StringRef Root) {
  llvm::StringRef Trimmed = Root.rtrim('/');
  return Trimmed.empty() ? "" : Trimmed.str() + "/";
}

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
      adjustedArguments(In.Command, Context.getOptionsForFile(In.File));
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
    TidyAction Action(Factory, Context, projectPrefix(In.ProjectRoot),
                      Cancelled, Includes);
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
