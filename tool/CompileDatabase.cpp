//===--- CompileDatabase.cpp - Finding and loading compile commands -------===//

#include "CompileDatabase.h"
#include "CudaCommand.h"
#include "Version.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>
#include <optional>

namespace torch_tidy {

using namespace clang::tooling;

/// \p Dir with a leading run of two or more slashes made one. POSIX leaves
/// "//" implementation-defined and Linux reads it as "/", but llvm::sys::path
/// reads "//x" as a network root name: a file "..p" in directory "//" would be
/// listed as "//..p", a path without a root directory, so not absolute.
static std::optional<std::string> collapseLeadingSlashes(llvm::StringRef Dir) {
#ifdef _WIN32
  return std::nullopt;
#else
  if (!Dir.starts_with("//"))
    return std::nullopt;
  return "/" + Dir.ltrim('/').str();
#endif
}

/// Makes each relative "directory" of \p Entries absolute, relative to the
/// folder of the database \p File, and each root-name-only one the root;
/// true when one was. clang's loader keeps a relative directory (say ".") as
/// it is, so the files it lists would be relative to whatever directory
/// torch-tidy runs in, and would not be found by the absolute paths the
/// driver asks for.
static bool anchorRelativeDirectories(llvm::json::Value &Entries,
                                      llvm::StringRef File) {
  llvm::json::Array *Array = Entries.getAsArray();
  if (!Array)
    return false;
  llvm::SmallString<256> Base(File);
  llvm::sys::fs::make_absolute(Base);
  llvm::sys::path::remove_filename(Base);
  bool Changed = false;
  for (llvm::json::Value &Entry : *Array) {
    llvm::json::Object *Object = Entry.getAsObject();
    std::optional<llvm::StringRef> Dir =
        Object ? Object->getString("directory") : std::nullopt;
    if (!Dir)
      continue;
    if (std::optional<std::string> Root = collapseLeadingSlashes(*Dir)) {
      (*Object)["directory"] = std::move(*Root);
      Changed = true;
      continue;
    }
    if (llvm::sys::path::is_absolute(*Dir))
      continue;
    llvm::SmallString<256> Absolute(Base);
    llvm::sys::path::append(Absolute, *Dir);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    (*Object)["directory"] = std::string(Absolute);
    Changed = true;
  }
  return Changed;
}

static llvm::Expected<std::unique_ptr<CompilationDatabase>>
loadJsonFile(llvm::StringRef File) {
  std::string Error;
  std::unique_ptr<CompilationDatabase> Database;
  if (auto Text = llvm::MemoryBuffer::getFile(File)) {
    // clang's YAML-based loader accepts a truncated file (e.g. "[{...},") as
    // the entries before the cut, printing a YAML error; reject it instead.
    auto Parsed = llvm::json::parse((*Text)->getBuffer());
    if (!Parsed)
      return llvm::createStringError(
          std::errc::invalid_argument, "cannot load compile database '%s': %s",
          File.str().c_str(), llvm::toString(Parsed.takeError()).c_str());
    if (anchorRelativeDirectories(*Parsed, File))
      Database = JSONCompilationDatabase::loadFromBuffer(
          llvm::formatv("{0}", *Parsed).str(), Error,
          JSONCommandLineSyntax::AutoDetect);
  }
  if (!Database && Error.empty())
    Database = JSONCompilationDatabase::loadFromFile(
        File, Error, JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return llvm::createStringError(
        std::errc::invalid_argument, "cannot load compile database '%s': %s",
        File.str().c_str(), llvm::StringRef(Error).trim().str().c_str());
  // As clang-tidy's own loader does: expand @response files, infer commands
  // for headers and files not listed, and keep each command's driver mode.
  return inferTargetAndDriverMode(inferMissingCompileCommands(
      expandResponseFiles(std::move(Database), llvm::vfs::getRealFileSystem())));
}

llvm::Expected<std::unique_ptr<CompilationDatabase>>
loadFromBuildPath(llvm::StringRef BuildPath) {
  llvm::SmallString<256> File(BuildPath);
  if (llvm::sys::fs::is_directory(File))
    llvm::sys::path::append(File, "compile_commands.json");
  if (!llvm::sys::fs::exists(File))
    return llvm::createStringError(std::errc::no_such_file_or_directory,
                                   "no compile database at '%s'",
                                   File.c_str());
  return loadJsonFile(File);
}

std::optional<std::string> findCompileDatabase(llvm::StringRef SourceFile,
                                               bool InBuildDirectories) {
  llvm::SmallString<256> Dir(SourceFile);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    for (llvm::StringRef Sub : {"", "build"}) {
      if (!Sub.empty() && !InBuildDirectories)
        continue;
      llvm::SmallString<256> File(Current);
      llvm::sys::path::append(File, Sub, "compile_commands.json");
      if (llvm::sys::fs::exists(File))
        return std::string(File);
    }
  }
  return std::nullopt;
}

llvm::Expected<std::unique_ptr<CompilationDatabase>>
discoverAbove(llvm::StringRef SourceFile) {
  if (std::optional<std::string> File =
          findCompileDatabase(SourceFile, /*InBuildDirectories=*/false))
    return loadJsonFile(*File);
  return nullptr;
}

/// GCC options that clang's driver rejects as unknown arguments.
static bool isGccOnlyFlag(llvm::StringRef Arg) {
  static const char *const Prefixes[] = {
      "-fconcepts-diagnostics-depth", "-fno-canonical-system-headers",
      "-fconserve-stack",             "-fno-allow-store-data-races",
      "-fdeps-",                      "-fmodules-ts",
      "-fmodule-mapper",              "-mno-direct-extern-access",
      "-fstack-usage",                "-fno-var-tracking-assignments",
      "-fcompare-debug-second",       "-fno-tree-",
      "-ftree-",                      "-flto-partition",
  };
  for (const char *Prefix : Prefixes)
    if (Arg.starts_with(Prefix))
      return true;
  return false;
}

static void reportDroppedOnce(llvm::StringRef Arg) {
  static std::mutex Lock;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Reported.insert(Arg).second)
    llvm::errs() << "torch-tidy: warning: dropping GCC-only flag '" << Arg
                 << "' from the compile command\n";
}

static CommandLineArguments clangCompatible(const CommandLineArguments &Given,
                                            llvm::StringRef File) {
  CommandLineArguments Args = isNvccCommand(Given) ? fromNvcc(Given) : Given;
  if (isCudaCommand(Args, File))
    Args = forCudaHostParse(Args);
  Args = withLibTorchShims(Args);
  CommandLineArguments Out;
  bool HasResourceDir = false;
  for (const std::string &Arg : Args) {
    if (isGccOnlyFlag(Arg)) {
      reportDroppedOnce(Arg);
      continue;
    }
    HasResourceDir |= llvm::StringRef(Arg).starts_with("-resource-dir");
    Out.push_back(Arg);
  }
  // Clang's builtin headers are found relative to the clang binary; ours lives
  // elsewhere, so name clang 19's resource directory unless the command does.
  if (!HasResourceDir && !Out.empty())
    Out.insert(Out.begin() + 1,
               "-resource-dir=" TORCH_TIDY_CLANG_RESOURCE_DIR);
  return Out;
}

std::unique_ptr<CompilationDatabase>
adaptForClang(std::unique_ptr<CompilationDatabase> Base) {
  auto Adapted =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(Base));
  Adapted->appendArgumentsAdjuster(clangCompatible);
  return Adapted;
}

} // namespace torch_tidy
