//===--- ResultCacheTest.cpp - Replaying a file's analysis ----------------===//

#include "CacheDirectory.h"
#include "ResultCache.h"
#include "TestFiles.h"
#include "llvm/Support/FileSystem.h"
#include <chrono>
#include <fstream>
#include <thread>
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using test::TempDir;

auto Now = [] { return std::chrono::system_clock::now(); };

void overwrite(const std::string &Path, const std::string &Text) {
  std::ofstream(Path, std::ios::trunc) << Text;
}

/// One run: its digests are taken once, as the driver's are.
struct OneRun {
  explicit OneRun(const CacheDirectory &Dir) : Cache(Dir, Digests) {}
  FileDigests Digests;
  ResultCache Cache;
};

class ResultCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    Main = Project.write("src/a.cpp", "#include \"a.h\"\nint x;\n");
    Header = Project.write("src/a.h", "int y;\n");
    System = Project.write("sys/vector", "namespace std {}\n");
    auto Opened = CacheDirectory::open(Store.path(), CacheDirectory::DefaultLimit);
    ASSERT_TRUE(bool(Opened)) << llvm::toString(Opened.takeError());
    Dir.emplace(std::move(*Opened));
    Key = {Main, "tool", "command", "config"};
  }

  /// Analyses (stores) Main as reading its header and, through a shared
  /// precompiled header, the system header.
  void analyse(llvm::StringRef Output = "[]") {
    OneRun R(*Dir);
    R.Cache.store(Key, Output, {Main, Header}, {System}, Now(), "a reason");
  }

  CacheLookup lookup() {
    OneRun R(*Dir);
    return R.Cache.lookup(Key);
  }

  TempDir Project, Store;
  std::string Main, Header, System;
  std::optional<CacheDirectory> Dir;
  CacheKey Key;
};

TEST_F(ResultCacheTest, AHitReplaysTheOutputAsWritten) {
  EXPECT_EQ(lookup().Reason, "it is not in the cache");
  analyse("[{\"check\": \"x\"}]\n");
  CacheLookup Found = lookup();
  ASSERT_TRUE(Found.Output) << Found.Reason;
  EXPECT_EQ(*Found.Output, "[{\"check\": \"x\"}]\n");
}

TEST_F(ResultCacheTest, AnyChangedInputIsAMissNamingIt) {
  analyse();
  Project.write("src/a.h", "int y; int z;\n");
  EXPECT_EQ(lookup().Reason, "'" + Header + "' changed");
  analyse();
  Project.write("sys/vector", "namespace std { int v; }\n");
  EXPECT_EQ(lookup().Reason, "'" + System + "' changed");
  analyse();
  Project.write("src/a.cpp", "int x;\n");
  EXPECT_EQ(lookup().Reason, "it changed");
  analyse();
  llvm::sys::fs::remove(Header);
  EXPECT_EQ(lookup().Reason, "'" + Header + "' is gone");
}

TEST_F(ResultCacheTest, TheKeyDecides) {
  analyse();
  for (auto [Field, Reason] :
       {std::pair{&CacheKey::Tool, "torch-tidy changed"},
        std::pair{&CacheKey::Command, "its compile command changed"},
        std::pair{&CacheKey::Config, "the configuration changed"}}) {
    CacheKey Other = Key;
    Other.*Field = "other";
    OneRun R(*Dir);
    EXPECT_EQ(R.Cache.lookup(Other).Reason, Reason);
  }
}

TEST_F(ResultCacheTest, AMissOfAnotherConfigurationNamesTheSettings) {
  Key.Settings = {{"Checks", "'*'"},
                  {"CheckOptions.device-sync-in-loop.ReportNecessary", "false"}};
  analyse();
  CacheKey Other = Key;
  Other.Config = "other";
  Other.Settings["CheckOptions.device-sync-in-loop.ReportNecessary"] = "true";
  OneRun R(*Dir);
  EXPECT_EQ(R.Cache.lookup(Other).Reason,
            "the check options changed: device-sync-in-loop.ReportNecessary");
  Other.Settings["Checks"] = "'-*,device-*'";
  EXPECT_EQ(R.Cache.lookup(Other).Reason,
            "the configuration changed: Checks; the check options changed: "
            "device-sync-in-loop.ReportNecessary");
}

TEST_F(ResultCacheTest, EachConfigurationKeepsItsEntryUpToABound) {
  std::vector<CacheKey> Keys;
  for (size_t I = 0; I <= ResultCache::ConfigurationsPerFile; ++I) {
    Keys.push_back(Key);
    Keys.back().Config = "config" + std::to_string(I);
  }
  auto Store = [&](const CacheKey &K) {
    OneRun R(*Dir);
    R.Cache.store(K, "[]", {Main, Header}, {}, Now(), "");
    // Distinct modification times order the entries by use.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  };
  auto Hit = [&](const CacheKey &K) { return bool(OneRun(*Dir).Cache.lookup(K).Output); };
  Store(Keys[0]);
  Store(Keys[1]);
  EXPECT_TRUE(Hit(Keys[0]));
  EXPECT_TRUE(Hit(Keys[1]));
  for (size_t I = 2; I < Keys.size(); ++I)
    Store(Keys[I]);
  // One too many: the least recently used (the first) is gone.
  EXPECT_FALSE(Hit(Keys[0]));
  for (size_t I = 1; I < Keys.size(); ++I)
    EXPECT_TRUE(Hit(Keys[I])) << I;
}

TEST_F(ResultCacheTest, ADamagedEntryIsIgnoredAndWrittenAgain) {
  analyse("[1]");
  std::vector<std::string> Entries;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir->path("results"), EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Entries.push_back(It->path());
  ASSERT_EQ(Entries.size(), 1u);
  for (const char *Damage : {"", "{\"format\": 1", "[]", "not json at all"}) {
    overwrite(Entries[0], Damage);
    EXPECT_EQ(lookup().Reason, "its cache entry is damaged") << Damage;
  }
  // The output is checked against its digest: a changed byte is damage.
  analyse("[1]");
  std::string Text = test::readFile(Entries[0]);
  Text.replace(Text.find("\"[1]\""), 5, "\"[2]\"");
  overwrite(Entries[0], Text);
  EXPECT_EQ(lookup().Reason, "its cache entry is damaged");
  analyse("[1]");
  ASSERT_TRUE(lookup().Output);
}

TEST_F(ResultCacheTest, NothingIsStoredWhenAnInputChangedDuringTheAnalysis) {
  auto Before = Now() - std::chrono::seconds(10);
  OneRun R(*Dir);
  R.Cache.store(Key, "[]", {Main, Header}, {}, Before, "");
  EXPECT_EQ(lookup().Reason, "it is not in the cache");
}

TEST_F(ResultCacheTest, ExplainSaysWhyAndWhen) {
  analyse();
  OneRun R(*Dir);
  std::string Text = R.Cache.explain(Key);
  EXPECT_NE(Text.find("up to date"), std::string::npos) << Text;
  EXPECT_NE(Text.find("a reason"), std::string::npos) << Text;
  Project.write("src/a.h", "int w;\n");
  OneRun Later(*Dir);
  Text = Later.Cache.explain(Key);
  EXPECT_NE(Text.find("analysed on the next run: '" + Header + "' changed"),
            std::string::npos)
      << Text;
}

TEST(CacheDirectory, EvictsTheLeastRecentlyUsed) {
  TempDir Store;
  auto Dir = CacheDirectory::open(Store.path(), 3000);
  ASSERT_TRUE(bool(Dir)) << llvm::toString(Dir.takeError());
  std::string Kilobyte(1000, 'x');
  for (const char *Name : {"results/aa/old.json", "results/bb/mid.json",
                           "results/cc/new.json", "pch/key/prefix.pch"}) {
    ASSERT_FALSE(bool(Dir->write(Name, Kilobyte)));
    // Modification times apart: old, mid, new, then the header.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Dir->touch("results/aa/old.json"); // used again: now the most recent
  Dir->evict();
  EXPECT_TRUE(Dir->read("results/aa/old.json"));
  EXPECT_FALSE(Dir->read("results/bb/mid.json"));
  EXPECT_FALSE(Dir->read("results/cc/new.json"));
  EXPECT_TRUE(Dir->read("pch/key/prefix.pch"));
}

TEST(CacheDirectory, ParsesSizes) {
  EXPECT_EQ(parseSize("2G"), uint64_t(2) << 30);
  EXPECT_EQ(parseSize("500m"), uint64_t(500) << 20);
  EXPECT_EQ(parseSize("64K"), uint64_t(64) << 10);
  EXPECT_EQ(parseSize("1000"), 1000u);
  EXPECT_FALSE(parseSize(""));
  EXPECT_FALSE(parseSize("G"));
  EXPECT_FALSE(parseSize("-1G"));
  EXPECT_FALSE(parseSize("2T"));
  EXPECT_FALSE(parseSize("99999999999999G"));
}

TEST(CacheDirectory, AnUnwritableRootIsAnError) {
  auto Dir = CacheDirectory::open("/proc/torch-tidy-cache", 1000);
  ASSERT_FALSE(bool(Dir));
  EXPECT_NE(llvm::toString(Dir.takeError()).find("cannot create the cache directory"),
            std::string::npos);
}

} // namespace
} // namespace torch_tidy
