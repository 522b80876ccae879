//===--- compile_database_fuzzer.cpp - Loading compile_commands.json ------===//
//
// The input is a build directory's compile_commands.json ("@DIR@" stands for
// the scratch directory, so that absolute paths are reachable). Loading it
// yields a database or an error of one line; every file the database lists
// is absolute and has a command that runs in an absolute directory, as the
// driver needs; a file it does not list gets an inferred command or none,
// never a crash.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "FuzzSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace torch_tidy;
using namespace torch_tidy::fuzz;
using clang::tooling::CompileCommand;

static std::string substituteDir(std::string Text) {
  const std::string Placeholder = "@DIR@";
  for (size_t At = Text.find(Placeholder); At != Text.npos;
       At = Text.find(Placeholder, At + scratchDir().size()))
    Text.replace(At, Placeholder.size(), scratchDir());
  return Text;
}

/// An empty command line may remain: the driver reports it as a compiler
/// error ("no input files"), as clang-tidy does.
static void checkCommands(const std::vector<CompileCommand> &Commands) {
  for (const CompileCommand &C : Commands) {
    check(llvm::sys::path::is_absolute(C.Directory),
          "a command runs in an absolute directory", C.Directory);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Build = [] {
    std::string Dir = scratchPath("build");
    llvm::sys::fs::create_directories(Dir);
    llvm::sys::fs::create_directories(scratchPath("src"));
    writeFile(scratchPath("src/a.cpp"), "int a;\n");
    return Dir;
  }();
  writeFile(Build + "/compile_commands.json",
            substituteDir(std::string(reinterpret_cast<const char *>(Data), Size)));

  auto Loaded = loadFromBuildPath(Build);
  if (!Loaded) {
    std::string Message = llvm::toString(Loaded.takeError());
    check(Message.find('\n') == Message.npos, "an error is one line", Message);
    return 0;
  }
  std::unique_ptr<clang::tooling::CompilationDatabase> Database =
      adaptForClang(std::move(*Loaded));
  std::vector<std::string> Files = Database->getAllFiles();
  for (size_t I = 0; I < Files.size() && I < 8; ++I) {
    check(llvm::sys::path::is_absolute(Files[I]), "listed files are absolute",
          Files[I]);
    std::vector<CompileCommand> Commands = Database->getCompileCommands(Files[I]);
    check(!Commands.empty(), "a listed file has a command", Files[I]);
    checkCommands(Commands);
  }
  // Files it does not list: the driver asks for them by absolute path.
  checkCommands(Database->getCompileCommands(scratchPath("src/a.cpp")));
  checkCommands(Database->getCompileCommands(scratchPath("src/a.h")));
  return 0;
}
