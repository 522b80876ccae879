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
  std::map<std::string, std::string> Settings =
      findingSettings(Options, FixNotes);
  DigestBuilder Config;
  for (const auto &[Name, Value] : Settings)
    Config.add(Name).add(Value);
  return {File, Tool.str(), Command.hex(), Config.hex(), std::move(Settings)};
}

std::map<std::string, std::string>
findingSettings(const tidy::ClangTidyOptions &Options, bool FixNotes) {
  tidy::ClangTidyOptions Effective = Options;
  // Who runs it and how the findings are shown do not change them: the
  // warnings that are errors are marked after the analysis
  // (markWarningsAsErrors).
  Effective.User.reset();
  Effective.WarningsAsErrors.reset();
  Effective.UseColor.reset();
  std::map<std::string, std::string> Settings;
  for (const auto &[Name, Option] : Effective.CheckOptions)
    Settings["CheckOptions." + Name.str()] = Option.Value;
  Effective.CheckOptions.clear();
  // The other keys as configurationAsText() writes them: a line "Key: value"
  // and the indented lines of a list below it.
  std::string Current;
  std::string Text = tidy::configurationAsText(Effective);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.empty() || Line == "---" || Line == "...")
      continue;
    if (!Line.starts_with(" ") && !Line.starts_with("-") && Line.contains(':')) {
      auto [Name, Value] = Line.split(':');
      Current = Name.str();
      Settings[Current] = Value.trim().str();
    } else {
      Settings[Current] += "\n" + Line.trim().str();
    }
  }
  if (FixNotes)
    Settings["--fix-notes"] = "on";
  return Settings;
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
