//===--- CompileDatabaseTest.cpp - Loading and adapting compile commands --===//

#include "CompileDatabase.h"
#include "CudaCommand.h"
#include "TestFiles.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <algorithm>
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using clang::tooling::CompileCommand;
using test::TempDir;

std::string database(const TempDir &Dir, const std::string &File) {
  return "[{\"directory\": \"" + Dir.path() + "\", \"file\": \"" + File +
         "\", \"command\": \"/usr/bin/c++ -std=c++17 -c " + File + "\"}]";
}

TEST(LoadFromBuildPath, LoadsFromADirectoryOrTheFile) {
  TempDir Dir;
  std::string Source = Dir.write("src/a.cpp", "int a;\n");
  Dir.write("build/compile_commands.json", database(Dir, Source));
  for (const std::string &Path :
       {Dir.file("build"), Dir.file("build/compile_commands.json")}) {
    auto Db = loadFromBuildPath(Path);
    ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
    std::vector<CompileCommand> Commands = (*Db)->getCompileCommands(Source);
    ASSERT_EQ(Commands.size(), 1u);
    EXPECT_EQ(Commands[0].Filename, Source);
  }
}

TEST(LoadFromBuildPath, MalformedDatabaseIsAnErrorNamingTheFile) {
  TempDir Dir;
  std::string Db = Dir.write("build/compile_commands.json", "[{\"directory\": ");
  auto Loaded = loadFromBuildPath(Dir.file("build"));
  ASSERT_FALSE(bool(Loaded));
  std::string Message = llvm::toString(Loaded.takeError());
  EXPECT_NE(Message.find(Db), std::string::npos) << Message;
  EXPECT_EQ(Message.find('\n'), std::string::npos) << "one line: " << Message;
}

TEST(LoadFromBuildPath, TruncatedDatabaseIsAnError) {
  // Cut off after its first entry, as an interrupted write leaves it: clang's
  // YAML loader alone would accept the first entry and drop the rest.
  TempDir Dir;
  std::string Source = Dir.write("src/a.cpp", "int a;\n");
  std::string Full = database(Dir, Source);
  std::string Db = Dir.write("build/compile_commands.json",
                             Full.substr(0, Full.size() - 1) + ",");
  auto Loaded = loadFromBuildPath(Dir.file("build"));
  ASSERT_FALSE(bool(Loaded));
  std::string Message = llvm::toString(Loaded.takeError());
  EXPECT_NE(Message.find(Db), std::string::npos) << Message;
}

TEST(LoadFromBuildPath, NotAnArrayIsAnError) {
  TempDir Dir;
  Dir.write("build/compile_commands.json", "{\"file\": \"a.cpp\"}");
  auto Loaded = loadFromBuildPath(Dir.file("build"));
  ASSERT_FALSE(bool(Loaded));
  llvm::consumeError(Loaded.takeError());
}

TEST(LoadFromBuildPath, MissingDatabaseIsAnError) {
  TempDir Dir;
  auto Loaded = loadFromBuildPath(Dir.path());
  ASSERT_FALSE(bool(Loaded));
  std::string Message = llvm::toString(Loaded.takeError());
  EXPECT_NE(Message.find(Dir.file("compile_commands.json")), std::string::npos)
      << Message;
  auto Nowhere = loadFromBuildPath(Dir.file("no-such-build"));
  ASSERT_FALSE(bool(Nowhere));
  llvm::consumeError(Nowhere.takeError());
}

TEST(DiscoverAbove, FindsADatabaseTwoDirectoriesUp) {
  TempDir Dir;
  std::string Source = Dir.write("src/nn/model.cpp", "int a;\n");
  Dir.write("compile_commands.json", database(Dir, Source));
  auto Db = discoverAbove(Source);
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  ASSERT_TRUE(*Db != nullptr);
  std::vector<CompileCommand> Commands = (*Db)->getCompileCommands(Source);
  ASSERT_EQ(Commands.size(), 1u);
  EXPECT_NE(std::find(Commands[0].CommandLine.begin(),
                      Commands[0].CommandLine.end(), "-std=c++17"),
            Commands[0].CommandLine.end());
}

TEST(DiscoverAbove, TheNearestDatabaseWins) {
  TempDir Dir;
  std::string Source = Dir.write("src/nn/model.cpp", "int a;\n");
  Dir.write("compile_commands.json", "this is not JSON");
  Dir.write("src/compile_commands.json", database(Dir, Source));
  auto Db = discoverAbove(Source);
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  ASSERT_TRUE(*Db != nullptr);
}

TEST(DiscoverAbove, MalformedNearestDatabaseIsAnError) {
  TempDir Dir;
  std::string Source = Dir.write("src/model.cpp", "int a;\n");
  std::string Broken = Dir.write("src/compile_commands.json", "[");
  auto Db = discoverAbove(Source);
  ASSERT_FALSE(bool(Db));
  std::string Message = llvm::toString(Db.takeError());
  EXPECT_NE(Message.find(Broken), std::string::npos) << Message;
}

TEST(FindCompileDatabase, BuildDirectoriesOnlyWhenAsked) {
  TempDir Dir;
  std::string Source = Dir.write("project/src/model.cpp", "int a;\n");
  std::string InBuild =
      Dir.write("project/build/compile_commands.json", database(Dir, Source));
  EXPECT_EQ(findCompileDatabase(Source, /*InBuildDirectories=*/false),
            std::nullopt);
  EXPECT_EQ(findCompileDatabase(Source, /*InBuildDirectories=*/true), InBuild);
}

TEST(FindCompileDatabase, ADirectorysOwnDatabaseBeforeItsBuildDirectory) {
  TempDir Dir;
  std::string Source = Dir.write("src/model.cpp", "int a;\n");
  Dir.write("build/compile_commands.json", database(Dir, Source));
  std::string Own = Dir.write("compile_commands.json", database(Dir, Source));
  std::string Nearer = Dir.write("src/build/compile_commands.json",
                                 database(Dir, Source));
  EXPECT_EQ(findCompileDatabase(Source, true), Nearer);
  EXPECT_EQ(findCompileDatabase(Source, false), Own);
}

std::vector<std::string> adaptedCommand(std::vector<std::string> Flags,
                                        const std::string &File) {
  auto Fixed = std::make_unique<clang::tooling::FixedCompilationDatabase>(
      ".", Flags);
  auto Adapted = adaptForClang(std::move(Fixed));
  std::vector<CompileCommand> Commands = Adapted->getCompileCommands(File);
  EXPECT_EQ(Commands.size(), 1u);
  return Commands.empty() ? std::vector<std::string>()
                          : Commands[0].CommandLine;
}

bool contains(const std::vector<std::string> &Args, const std::string &Arg) {
  return std::find(Args.begin(), Args.end(), Arg) != Args.end();
}

TEST(NvccCommand, BecomesAClangCudaCommand) {
  // What torch.utils.cpp_extension and CMake's CUDA language run.
  std::vector<std::string> Args = fromNvcc(
      {"/opt/cuda/bin/nvcc", "-I/inc", "-x", "cu", "-c", "k.cu", "-o", "k.o",
       "--expt-relaxed-constexpr", "--compiler-options", "'-fPIC'",
       "-Xcompiler=-fPIC", "-gencode=arch=compute_80,code=sm_80", "-gencode",
       "arch=compute_70,code=[sm_70,compute_70]", "-arch=sm_999",
       "--use_fast_math", "-Xptxas", "-v", "-ccbin", "g++", "--std", "c++17",
       "-DX=1", "-O3"});
  std::vector<std::string> Expected = {
      "clang++", "-I/inc", "-x", "cuda", "-c", "k.cu", "-o", "k.o",
      "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_70", "-std=c++17", "-DX=1",
      "-O3"};
  EXPECT_EQ(Args, Expected);
}

TEST(NvccCommand, CudaSourcesParseTheirHostSide) {
  std::vector<std::string> Args =
      forCudaHostParse({"clang++", "--cuda-device-only", "-c", "k.cu"});
  EXPECT_TRUE(contains(Args, "--cuda-host-only"));
  EXPECT_FALSE(contains(Args, "--cuda-device-only"));
  EXPECT_TRUE(contains(Args, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(isCudaCommand(Args, "k.cu"));
  EXPECT_TRUE(isCudaCommand({"c++", "-x", "cuda", "k.cpp"}, "k.cpp"));
  EXPECT_FALSE(isCudaCommand({"c++", "-c", "k.cpp"}, "k.cpp"));
  // Without a toolkit there is no --cuda-path to give.
  EXPECT_FALSE(findCudaToolkit({"clang++", "--cuda-path=/no/such/toolkit"}));
}

TEST(AdaptForClang, DropsGccOnlyFlagsAndAddsTheResourceDir) {
  std::vector<std::string> Args = adaptedCommand(
      {"-std=c++17", "-fconserve-stack", "-fno-tree-vectorize", "-O2"},
      "/src/a.cpp");
  EXPECT_FALSE(contains(Args, "-fconserve-stack"));
  EXPECT_FALSE(contains(Args, "-fno-tree-vectorize"));
  EXPECT_TRUE(contains(Args, "-std=c++17"));
  EXPECT_TRUE(contains(Args, "-O2"));
  EXPECT_TRUE(contains(Args, "/src/a.cpp"));
  EXPECT_TRUE(contains(Args, "-resource-dir=" TORCH_TIDY_TEST_RESOURCE_DIR))
      << "resource dir missing";
  // Right after the compiler, before the file.
  ASSERT_GE(Args.size(), 2u);
  EXPECT_EQ(Args[1], "-resource-dir=" TORCH_TIDY_TEST_RESOURCE_DIR);
}

TEST(AdaptForClang, KeepsAResourceDirGivenByTheCommand) {
  std::vector<std::string> Args =
      adaptedCommand({"-resource-dir=/opt/clang/19", "-c"}, "/src/a.cpp");
  EXPECT_TRUE(contains(Args, "-resource-dir=/opt/clang/19"));
  EXPECT_EQ(std::count_if(Args.begin(), Args.end(),
                          [](const std::string &A) {
                            return A.rfind("-resource-dir", 0) == 0;
                          }),
            1);
}

} // namespace
} // namespace torch_tidy
