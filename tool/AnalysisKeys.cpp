//===--- AnalysisKeys.cpp - What an analysis depends on -------------------===//

#include "AnalysisKeys.h"
#include "ClangToolSetup.h"
#include "ContentDigest.h"
#include "Version.h"
#include "clang/Basic/Version.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

using namespace clang;

std::string toolDigest(const std::string &Executable) {
  auto Binary = llvm::MemoryBuffer::getFile(Executable, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return DigestBuilder()
      .add(TORCH_TIDY_VERSION)
      .add(getClangFullVersion())
      .add(Binary ? digestOf((*Binary)->getBuffer()) : "")
      .hex();
}

CacheKey cacheKeyFor(const std::string &File,
                     const tooling::CompilationDatabase &Database,
                     const tidy::ClangTidyOptions &Options, bool FixNotes,
                     llvm::StringRef Tool) {
  DigestBuilder Command;
  for (const tooling::CompileCommand &C : Database.getCompileCommands(File)) {
    Command.add(C.Directory).add(C.Filename);
    for (const std::string &Arg : C.CommandLine)
      Command.add(Arg);
  }
  tidy::ClangTidyOptions Effective = Options;
  Effective.User.reset(); // who runs it does not change the findings
  std::string Config = tidy::configurationAsText(Effective);
  return {File, Tool.str(), Command.hex(),
          DigestBuilder().add(Config).add(FixNotes ? "fix-notes" : "").hex()};
}

static bool isCppSource(llvm::StringRef File) {
  llvm::StringRef Extension = llvm::sys::path::extension(File);
  return llvm::is_contained({".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP"},
                            Extension);
}

/// Arguments that put something before the file's own first line.
static bool includesBeforeTheFile(llvm::StringRef Arg) {
  return Arg.starts_with("-include") || Arg.starts_with("--include") ||
         Arg.starts_with("-imacros") || Arg.starts_with("--imacros") ||
         Arg.starts_with("/FI") || Arg.starts_with("-fmodules") ||
         Arg == "-Xclang";
}

std::optional<std::string>
sharedHeaderKeyFor(const std::string &File,
                   const tooling::CompilationDatabase &Database,
                   const tidy::ClangTidyOptions &Options) {
  std::vector<tooling::CompileCommand> Commands =
      Database.getCompileCommands(File);
  if (Commands.size() != 1 || !isCppSource(File))
    return std::nullopt;
  const tooling::CompileCommand &Command = Commands.front();
  DigestBuilder Key;
  Key.add(Command.Directory).add(llvm::sys::path::extension(File));
  for (const std::string &Arg : analysedCommandLine(Command, Options)) {
    if (includesBeforeTheFile(Arg))
      return std::nullopt;
    llvm::SmallString<256> Absolute(Arg);
    llvm::sys::fs::make_absolute(Command.Directory, Absolute);
    // The file itself is the one argument that may differ.
    Key.add(Absolute == File ? "<file>" : llvm::StringRef(Arg));
  }
  return Key.hex();
}

} // namespace torch_tidy
