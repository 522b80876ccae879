//===--- CompileDatabaseHostileTest.cpp - Odd compile databases -----------===//
//
// Regression tests for what compile_database_fuzzer found (test/fuzz/).
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include "TestFiles.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using clang::tooling::CompileCommand;
using test::TempDir;

TEST(HostileCompileDatabase, RelativeDirectoryIsTheDatabasesFolder) {
  // "directory": "." (or "") with relative files: the files are those next
  // to compile_commands.json, wherever torch-tidy runs.
  TempDir Dir;
  std::string Source = Dir.write("build/a.cpp", "int a;\n");
  Dir.write("build/sub/b.cpp", "int b;\n");
  Dir.write("build/compile_commands.json",
            R"([{"directory": ".", "file": "a.cpp", "command": "c++ -c a.cpp"},)"
            R"( {"directory": "", "file": "sub/b.cpp", "command": "c++ -c b.cpp"},)"
            R"( {"directory": "sub/..", "file": "x.cpp", "command": "c++ -c x.cpp"}])");
  auto Db = loadFromBuildPath(Dir.file("build"));
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  std::vector<std::string> Files = (*Db)->getAllFiles();
  std::sort(Files.begin(), Files.end());
  EXPECT_EQ(Files, (std::vector<std::string>{Source, Dir.file("build/sub/b.cpp"),
                                             Dir.file("build/x.cpp")}));
  std::vector<CompileCommand> Commands = (*Db)->getCompileCommands(Source);
  ASSERT_EQ(Commands.size(), 1u);
  EXPECT_EQ(Commands[0].Directory, Dir.file("build"));
}

TEST(HostileCompileDatabase, EmptyEntryListsAnAbsolutePath) {
  TempDir Dir;
  Dir.write("build/compile_commands.json",
            R"([{"directory": "", "file": "", "command": ""}])");
  auto Db = loadFromBuildPath(Dir.file("build"));
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  for (const std::string &File : (*Db)->getAllFiles())
    EXPECT_TRUE(llvm::sys::path::is_absolute(File)) << File;
}


TEST(HostileCompileDatabase, RootNameOnlyDirectoryIsTheRoot) {
  // The fuzzer's input: "directory": "//" and "file": "..p" listed "//..p",
  // which llvm reads as a network root name, not an absolute path.
  TempDir Dir;
  Dir.write("build/compile_commands.json",
            R"([{"directory": "//", "file": "..p", "command": "c++ -c ..p"},)"
            R"( {"directory": "///usr//", "file": "x.cpp", "command": "c++ -c x.cpp"}])");
  auto Db = loadFromBuildPath(Dir.file("build"));
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  std::vector<std::string> Files = (*Db)->getAllFiles();
  std::sort(Files.begin(), Files.end());
  EXPECT_EQ(Files, (std::vector<std::string>{"/..p", "/usr/x.cpp"}));
  for (const std::string &File : Files) {
    EXPECT_TRUE(llvm::sys::path::is_absolute(File)) << File;
    std::vector<CompileCommand> Commands = (*Db)->getCompileCommands(File);
    ASSERT_EQ(Commands.size(), 1u) << File;
    EXPECT_TRUE(llvm::sys::path::is_absolute(Commands[0].Directory))
        << Commands[0].Directory;
  }
}

} // namespace
} // namespace torch_tidy
