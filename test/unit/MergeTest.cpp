//===--- MergeTest.cpp - Joining the reports of shards --------------------===//

#include "Merge.h"
#include "Output.h"
#include "TestFiles.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::offsetOf;
using test::spanAt;
using test::TempDir;

const char MergedCode[] = "void f(torch::Tensor x, torch::Device d) {\n"
                    "  x.to(d);\n"
                    "  for (auto t : v) t = t.to(d);\n"
                    "}\n";

class MergeTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char *Name : {"src/a.cpp", "src/b.cpp", "src/c.cpp"}) {
      std::string File = Dir.write(Name, MergedCode);
      Finding Discarded;
      Discarded.Check = "device-discarded-to";
      Discarded.Message = "result of 'to' is discarded";
      Discarded.Where = spanAt(File, offsetOf(MergedCode, "x.to(d)"));
      Discarded.Notes.push_back({spanAt(File, offsetOf(MergedCode, "for")), "n", {}});
      Finding Loop;
      Loop.Check = "device-loop-copy-to";
      Loop.Message = "'t' is a copy";
      Loop.Where = spanAt(File, offsetOf(MergedCode, "t = t.to"));
      ByFile.push_back({Discarded, Loop});
    }
  }

  std::string sarif(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeSarif(OS, Fs, Dir.path());
    return Out;
  }
  std::string jsonReport(const std::vector<Finding> &Fs) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeJson(OS, Fs);
    return Out;
  }

  TempDir Dir;
  std::vector<std::vector<Finding>> ByFile;
};

TEST_F(MergeTest, ShardsOfSarifMergeIntoWhatOneRunWrites) {
  std::vector<Finding> All, First, Second;
  for (size_t I = 0; I < ByFile.size(); ++I) {
    All.insert(All.end(), ByFile[I].begin(), ByFile[I].end());
    (I == 1 ? First : Second).insert((I == 1 ? First : Second).end(),
                                     ByFile[I].begin(), ByFile[I].end());
  }
  // A compiler diagnostic's rule is listed by the shard that has it only.
  Finding Warning;
  Warning.Check = "clang-diagnostic-unused-variable";
  Warning.Message = "unused variable 'y'";
  Warning.Where = spanAt(Dir.file("src/b.cpp"), 0);
  First.push_back(Warning);
  All.push_back(Warning);
  sortAndDeduplicate(All);
  auto Merged = mergeReports({{"2.sarif", sarif(Second)}, {"1.sarif", sarif(First)}});
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  json Got = json::parse(*Merged), Want = json::parse(sarif(All));
  const json &Run = Got["runs"][0];
  ASSERT_EQ(Got["runs"].size(), 1u);
  EXPECT_EQ(Run["results"], Want["runs"][0]["results"]);
  // One rules table: the union, each result's index pointing into it.
  std::set<std::string> Ids;
  for (const json &Rule : Run["tool"]["driver"]["rules"])
    EXPECT_TRUE(Ids.insert(Rule["id"]).second) << Rule["id"];
  EXPECT_EQ(Ids.size(), Want["runs"][0]["tool"]["driver"]["rules"].size());
  for (const json &R : Run["results"])
    EXPECT_EQ(Run["tool"]["driver"]["rules"][R["ruleIndex"].get<unsigned>()]["id"],
              R["ruleId"]);
  EXPECT_EQ(Run["invocations"], Want["runs"][0]["invocations"]);
  EXPECT_EQ(Run["originalUriBaseIds"], Want["runs"][0]["originalUriBaseIds"]);
}

TEST_F(MergeTest, AFindingTwoShardsReportIsKeptOnce) {
  auto Merged = mergeReports({{"a", sarif(ByFile[0])}, {"b", sarif(ByFile[0])}});
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  EXPECT_EQ(json::parse(*Merged)["runs"][0]["results"].size(), 2u);
}

TEST_F(MergeTest, AFailedShardMakesTheRunFailed) {
  Finding Crash;
  Crash.Check = "torch-tidy-crash";
  Crash.Message = "torch-tidy crashed analysing this file";
  Crash.IsError = true;
  Crash.Where = spanAt(Dir.file("src/c.cpp"), 0);
  auto Merged = mergeReports({{"a", sarif(ByFile[0])}, {"c", sarif({Crash})}});
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  json Log = json::parse(*Merged);
  const json &Invocation = Log["runs"][0]["invocations"][0];
  EXPECT_FALSE(Invocation["executionSuccessful"]);
  EXPECT_EQ(Invocation["toolExecutionNotifications"].size(), 1u);
}

TEST_F(MergeTest, JsonReportsMergeSortedAndUnique) {
  std::vector<Finding> All;
  for (const auto &Fs : ByFile)
    All.insert(All.end(), Fs.begin(), Fs.end());
  auto Merged = mergeReports({{"c", jsonReport(ByFile[2])},
                              {"a", jsonReport(ByFile[0])},
                              {"b", jsonReport(ByFile[1])},
                              {"a again", jsonReport(ByFile[0])}});
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  EXPECT_EQ(json::parse(*Merged), json::parse(jsonReport(All)));
}

TEST_F(MergeTest, ReportsThatCannotBeMergedAreOneLineErrors) {
  std::string Good = sarif(ByFile[0]);
  json OtherRoot = json::parse(Good);
  OtherRoot["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] = "file:///x/";
  json OtherTool = json::parse(Good);
  OtherTool["runs"][0]["tool"]["driver"]["name"] = "clang-tidy";
  json BadLine = json::parse(jsonReport(ByFile[0]));
  BadLine[0]["line"] = "7";
  std::vector<std::pair<std::vector<Report>, std::string>> Cases = {
      {{{"a", Good}, {"b.sarif", OtherRoot.dump()}}, "b.sarif"},
      {{{"a", Good}, {"b.sarif", OtherTool.dump()}}, "b.sarif"},
      {{{"a", Good}, {"b.json", jsonReport(ByFile[1])}}, "b.json"},
      {{{"a", jsonReport(ByFile[0])}, {"b.sarif", Good}}, "b.sarif"},
      {{{"x.sarif", "{not json"}}, "x.sarif"},
      {{{"a", BadLine.dump()}, {"b", jsonReport(ByFile[1])}}, "malformed"},
      {{}, "no reports"},
  };
  for (const auto &[Reports, Named] : Cases) {
    auto Merged = mergeReports(Reports);
    ASSERT_FALSE(bool(Merged)) << Named;
    std::string Message = llvm::toString(Merged.takeError());
    EXPECT_NE(Message.find(Named), std::string::npos) << Message;
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  }
}

} // namespace
} // namespace torch_tidy
