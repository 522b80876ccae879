//===--- Preamble.cpp - The precompiled include block of an open file -----===//

#include "Preamble.h"
#include "CompileCommands.h"
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

namespace {

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
  void add(StringRef Name) { Headers.insert(absoluteIn(Directory, Name)); }

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
  PreambleBounds Bounds =
      ComputePreambleBounds(Invocation.getLangOpts(), Main.getMemBufferRef(), 0);
  if (!Preamble || Key != CommandKey ||
      !Preamble->CanReuse(Invocation, Main.getMemBufferRef(), Bounds, *FS))
    build(Invocation, Main, Bounds, FS, CommandKey, BeforeBuild);
  // A preamble with compiler errors is kept only to know when they may be
  // gone: a parse on top of it would not know of them, and the rules that
  // conclude from an absence must (where the compiler recovered from
  // errors they stay quiet). The file is parsed whole instead.
  return Preamble && !HasErrors ? &*Preamble : nullptr;
}

void FilePreamble::build(const CompilerInvocation &Invocation,
                         const llvm::MemoryBuffer &Main, PreambleBounds Bounds,
                         llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                         const std::string &CommandKey,
                         llvm::function_ref<void()> BeforeBuild) {
  Preamble.reset();
  Headers.clear();
  BeforeBuild();
  IgnoringDiagConsumer Ignored;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(
          new DiagnosticOptions(Invocation.getDiagnosticOpts()), &Ignored,
          /*ShouldOwnClient=*/false);
  llvm::ErrorOr<std::string> WorkingDirectory = FS->getCurrentWorkingDirectory();
  std::set<std::string> Included;
  HeaderRecorder Recorder(Included, WorkingDirectory ? *WorkingDirectory : "");
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
    return;
  }
  Preamble = std::move(*Built);
  Key = CommandKey;
  HasErrors = Diags->hasErrorOccurred();
  Headers.assign(Included.begin(), Included.end());
}

} // namespace torch_tidy::lsp
