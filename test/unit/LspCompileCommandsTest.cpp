//===--- LspCompileCommandsTest.cpp - Each open file's compile command ----===//

#include "CompileCommands.h"
#include "TestFiles.h"
#include <algorithm>
#include <gtest/gtest.h>

namespace torch_tidy::lsp {
namespace {

using test::TempDir;

bool has(const clang::tooling::CompileCommand &C, const std::string &Arg) {
  return std::find(C.CommandLine.begin(), C.CommandLine.end(), Arg) !=
         C.CommandLine.end();
}

/// A project: src/main.cpp includes "nn/model.h" from include/ (found
/// through -I), src/other.cpp includes nothing; build/ has the database.
struct Project : ::testing::Test {
  TempDir Dir;
  std::string Main = Dir.write("src/main.cpp", "#include \"nn/model.h\"\n");
  std::string Other = Dir.write("src/other.cpp", "int other;\n");
  std::string Header = Dir.write("include/nn/model.h", "#pragma once\n");
  std::string Unlisted = Dir.write("src/unlisted.cpp", "int u;\n");
  std::string Database = Dir.write(
      "build/compile_commands.json",
      "[" + entry(Other, "-DOTHER") + "," + entry(Main, "-DMAIN") + "]");

  std::string entry(const std::string &File, const std::string &Define) {
    return "{\"directory\": \"" + Dir.file("build") + "\", \"file\": \"" +
           File + "\", \"arguments\": [\"clang++\", \"" + Define +
           "\", \"-I\", \"../include\", \"-c\", \"" + File + "\"]}";
  }
};

TEST_F(Project, AListedFileHasItsCommand) {
  CompileCommands Commands("", nullptr);
  FileCommand C = Commands.commandFor(Main);
  EXPECT_EQ(C.From, FileCommand::Listed);
  EXPECT_EQ(C.Detail, Database);
  EXPECT_TRUE(has(C.Command, "-DMAIN"));
}

TEST_F(Project, AHeaderBorrowsTheCommandOfAFileIncludingIt) {
  CompileCommands Commands("", nullptr);
  FileCommand C = Commands.commandFor(Header);
  EXPECT_EQ(C.From, FileCommand::Includer);
  EXPECT_EQ(C.Detail, Main);
  EXPECT_TRUE(has(C.Command, "-DMAIN"));
  EXPECT_TRUE(has(C.Command, Header));
}

TEST_F(Project, AnIncluderSeenAnalysedComesFirst) {
  CompileCommands Commands("", nullptr);
  Commands.recordIncludes(Other, {Header});
  FileCommand C = Commands.commandFor(Header);
  EXPECT_EQ(C.From, FileCommand::Includer);
  EXPECT_EQ(C.Detail, Other);
  EXPECT_TRUE(has(C.Command, "-DOTHER"));
}

TEST_F(Project, AFileNothingNamesGetsAGuess) {
  CompileCommands Commands("", nullptr);
  FileCommand C = Commands.commandFor(Unlisted);
  EXPECT_EQ(C.From, FileCommand::Interpolated);
  EXPECT_NE(C.Detail.find("inferred"), std::string::npos) << C.Detail;
}

TEST_F(Project, BuildPathAndFlagsOfTheCommandLineWin) {
  TempDir Elsewhere;
  std::string Outside = Elsewhere.write("x.cpp", "int x;\n");
  CompileCommands FromBuildPath(Dir.file("build"), nullptr);
  EXPECT_NE(FromBuildPath.commandFor(Outside).From, FileCommand::Missing);
  CompileCommands FromFlags(
      "", std::make_unique<clang::tooling::FixedCompilationDatabase>(
              ".", std::vector<std::string>{"-DFIXED"}));
  FileCommand C = FromFlags.commandFor(Main);
  EXPECT_EQ(C.From, FileCommand::CommandLine);
  EXPECT_TRUE(has(C.Command, "-DFIXED"));
}

TEST(CompileCommands, NoDatabaseSaysWhy) {
  TempDir Dir;
  std::string File = Dir.write("lonely.cpp", "int x;\n");
  FileCommand C = CompileCommands("", nullptr).commandFor(File);
  EXPECT_EQ(C.From, FileCommand::Missing);
  EXPECT_NE(C.Detail.find("no compile_commands.json"), std::string::npos)
      << C.Detail;
}

TEST(CompileCommands, AMalformedDatabaseSaysWhichAndReloads) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\n");
  std::string Database = Dir.write("compile_commands.json", "[{");
  CompileCommands Commands("", nullptr);
  FileCommand C = Commands.commandFor(File);
  EXPECT_EQ(C.From, FileCommand::Missing);
  EXPECT_NE(C.Detail.find(Database), std::string::npos) << C.Detail;
  Dir.write("compile_commands.json",
            "[{\"directory\": \"" + Dir.path() + "\", \"file\": \"a.cpp\", "
            "\"command\": \"clang++ -c a.cpp\"}]");
  EXPECT_EQ(Commands.commandFor(File).From, FileCommand::Missing)
      << "loaded once";
  Commands.reload();
  EXPECT_EQ(Commands.commandFor(File).From, FileCommand::Listed);
}

} // namespace
} // namespace torch_tidy::lsp
