//===--- CrashReportTest.cpp - What a worker's stack dump says -------------===//

#include "CrashReport.h"
#include "TestFiles.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using test::TempDir;

// As LLVM 19 prints it when a check's matcher callback crashes.
std::string matcherDump(const std::string &File) {
  return "PLEASE submit a bug report to https://github.com/llvm/llvm-project/"
         "issues/ and include the crash backtrace.\n"
         "Stack dump:\n"
         "0.\tProgram arguments: torch-tidy --worker-file=" + File + "\n"
         "1.\t<eof> parser at end of file\n"
         "2.\tASTMatcher: Processing 'device-factory-without-device' "
         "against:\n"
         "\tFunctionDecl train : <" + File + ":3:1, line:5:1>\n"
         "--- Bound Nodes Begin ---\n"
         "    function - { FunctionDecl train : <" + File + ":3:1, line:5:1> }\n"
         "--- Bound Nodes End ---\n"
         " #0 0x00007ff89ccb7a8b (/usr/lib/llvm-19/lib/libLLVM.so.19.1+0xeb7a8b)\n";
}

TEST(CrashReport, NamesTheCheckAndTheDeclaration) {
  auto Context = parseStackDump(matcherDump("/src/mnist.cpp"));
  ASSERT_TRUE(Context);
  EXPECT_EQ(Context->Check, "device-factory-without-device");
  EXPECT_EQ(Context->Declaration, "FunctionDecl train");
  EXPECT_EQ(Context->File, "/src/mnist.cpp");
  EXPECT_EQ(Context->Line, 3u);
  EXPECT_EQ(Context->Column, 1u);
}

TEST(CrashReport, ParserPositionWhenNoCheckRan) {
  auto Context = parseStackDump(
      "Stack dump:\n0.\tProgram arguments: torch-tidy a.cpp\n"
      "1.\t/src/a.cpp:1:2: current parser token 'pragma'\n"
      " #0 0x0000 llvm::sys::PrintStackTrace\n");
  ASSERT_TRUE(Context);
  EXPECT_EQ(Context->Check, "");
  EXPECT_EQ(Context->Declaration, "current parser token 'pragma'");
  EXPECT_EQ(Context->File, "/src/a.cpp");
  EXPECT_EQ(Context->Line, 1u);
  EXPECT_EQ(Context->Column, 2u);
}

TEST(CrashReport, NoStackDumpNoContext) {
  EXPECT_FALSE(parseStackDump(""));
  EXPECT_FALSE(parseStackDump("Segmentation fault\n"));
  EXPECT_FALSE(parseStackDump("Stack dump:\n #0 0x0 f\n"));
}

TEST(CrashReport, FindingPointsAtTheDeclarationInTheFile) {
  TempDir Dir;
  std::string File =
      Dir.write("mnist.cpp", "#include <x>\n\nvoid train() {\n}\n\n");
  SourceIndex Index;
  Finding F = crashFinding(File, "Segmentation fault", matcherDump(File), Index);
  EXPECT_EQ(F.Check, "torch-tidy-crash");
  EXPECT_TRUE(F.IsError);
  EXPECT_TRUE(F.isCompilerError());
  EXPECT_EQ(F.Where.Line, 3u);
  EXPECT_EQ(F.Where.Column, 1u);
  EXPECT_EQ(F.Message,
            "torch-tidy crashed analysing this file (Segmentation fault) in "
            "check 'device-factory-without-device' while processing "
            "'FunctionDecl train'; the file has no findings, the other files "
            "are not affected");
}

TEST(CrashReport, DeclarationInAHeaderIsNamedInTheMessage) {
  TempDir Dir;
  std::string File = Dir.write("main.cpp", "int main() {}\n");
  SourceIndex Index;
  Finding F = crashFinding(File, "Segmentation fault",
                           matcherDump("/usr/include/opencv4/opencv2/core/matx.hpp"),
                           Index);
  EXPECT_EQ(F.Where.Line, 1u);
  EXPECT_NE(F.Message.find("(/usr/include/opencv4/opencv2/core/matx.hpp:3:1)"),
            std::string::npos)
      << F.Message;
}

TEST(CrashReport, WithoutADumpTheCauseStillShows) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\n");
  SourceIndex Index;
  Finding F = crashFinding(File, "exit status 1: torch-tidy: error: boom", "",
                           Index);
  EXPECT_EQ(F.Where.Line, 1u);
  EXPECT_EQ(F.Message, "torch-tidy crashed analysing this file (exit status 1: "
                       "torch-tidy: error: boom); the file has no findings, "
                       "the other files are not affected");
}

} // namespace
} // namespace torch_tidy
