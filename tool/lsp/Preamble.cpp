//===--- Preamble.cpp - The precompiled include block of an open file -----===//

#include "Preamble.h"
#include "Transport.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/Support/Path.h"
#include <set>

namespace torch_tidy::lsp {

using namespace clang;

/// \p Name, a file name as the compiler saw it, made absolute relative to
/// \p Directory, the compile command's.
static std::string absolutePath(StringRef Directory, StringRef Name) {
  llvm::SmallString<256> Path(Name);
  if (!llvm::sys::path::is_absolute(Path)) {
    Path = Directory;
    llvm::sys::path::append(Path, Name);
  }
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

namespace {

/// Keeps the compiler errors met while the preamble is built, as findings:
/// the parse that reuses the preamble does not report them again.
class ErrorCollector : public DiagnosticConsumer {
public:
  ErrorCollector(std::vector<Finding> &Errors, std::string Directory)
      : Errors(Errors), Directory(std::move(Directory)) {}

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Info.hasSourceManager() ||
        Info.getLocation().isInvalid())
      return;
    const SourceManager &SM = Info.getSourceManager();
    Finding F;
    F.Check = "clang-diagnostic-error";
    F.IsError = true;
    llvm::SmallString<256> Message;
    Info.FormatDiagnostic(Message);
    F.Message = std::string(Message);
    SourceLocation Where = SM.getFileLoc(Info.getLocation());
    F.Where = spanAt(SM, Where);
    // In a header: also where the main file includes it.
    FileID File = SM.getFileID(Where);
    SourceLocation Include;
    while (File.isValid() && File != SM.getMainFileID()) {
      Include = SM.getIncludeLoc(File);
      File = Include.isValid() ? SM.getFileID(Include) : FileID();
    }
    if (File == SM.getMainFileID() && Include.isValid())
      F.Notes.push_back({spanAt(SM, Include), "included here", {}});
    Errors.push_back(std::move(F));
  }

private:
  Span spanAt(const SourceManager &SM, SourceLocation Loc) const {
    Span S;
    if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(Loc)))
      S.File = absolutePath(Directory, Entry->getName());
    S.Offset = SM.getFileOffset(Loc);
    return S;
  }

  std::vector<Finding> &Errors;
  std::string Directory;
};

/// Records the project's headers that the preamble includes.
class HeaderRecorder : public PreambleCallbacks {
public:
  HeaderRecorder(std::set<std::string> &Headers, std::string Directory)
      : Headers(Headers), Directory(std::move(Directory)) {}

  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    struct Callbacks : PPCallbacks {
      HeaderRecorder &Recorder;
      explicit Callbacks(HeaderRecorder &R) : Recorder(R) {}
      void InclusionDirective(SourceLocation, const Token &, StringRef, bool,
                              CharSourceRange, OptionalFileEntryRef File,
                              StringRef, StringRef, const Module *, bool,
                              SrcMgr::CharacteristicKind Kind) override {
        if (File && Kind == SrcMgr::C_User)
          Recorder.add(File->getName());
      }
    };
    return std::make_unique<Callbacks>(*this);
  }

private:
  void add(StringRef Name) { Headers.insert(absolutePath(Directory, Name)); }

  std::set<std::string> &Headers;
  std::string Directory;
};

} // namespace

const PrecompiledPreamble *
FilePreamble::get(const CompilerInvocation &Invocation,
                  const llvm::MemoryBuffer &Main,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  const std::string &CommandKey,
                  llvm::function_ref<void()> BeforeBuild) {
  Rebuilt = false;
  PreambleBounds Bounds =
      ComputePreambleBounds(Invocation.getLangOpts(), Main.getMemBufferRef(), 0);
  if (Preamble && Key == CommandKey &&
      Preamble->CanReuse(Invocation, Main.getMemBufferRef(), Bounds, *FS))
    return &*Preamble;

  Preamble.reset();
  Errors.clear();
  Headers.clear();
  BeforeBuild();
  Rebuilt = true;
  llvm::ErrorOr<std::string> WorkingDirectory = FS->getCurrentWorkingDirectory();
  std::string Directory = WorkingDirectory ? *WorkingDirectory : "";
  std::vector<Finding> NewErrors;
  ErrorCollector Collector(NewErrors, Directory);
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(
          new DiagnosticOptions(Invocation.getDiagnosticOpts()), &Collector,
          /*ShouldOwnClient=*/false);
  std::set<std::string> Included;
  HeaderRecorder Recorder(Included, Directory);
  // Templates instantiated by the headers are instantiated once, in the
  // preamble, instead of at the end of every parse that uses it: for
  // <torch/torch.h> that halves an analysis after an edit (clang's
  // -fpch-instantiate-templates; bench/README.md).
  CompilerInvocation ForPreamble(Invocation);
  ForPreamble.getLangOpts().PCHInstantiateTemplates = true;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      ForPreamble, &Main, Bounds, *Diags, FS,
      std::make_shared<PCHContainerOperations>(), /*StoreInMemory=*/false,
      StorageDirectory, Recorder);
  if (!Built) {
    log("no preamble for " + Main.getBufferIdentifier() + ": " +
        Built.getError().message() + "; the file is parsed whole");
    return nullptr;
  }
  Preamble = std::move(*Built);
  Key = CommandKey;
  Errors = std::move(NewErrors);
  Headers.assign(Included.begin(), Included.end());
  return &*Preamble;
}

} // namespace torch_tidy::lsp
