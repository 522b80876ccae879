//===--- BaselineTest.cpp - Identities of findings, the baseline file -----===//

#include "Baseline.h"
#include "TestFiles.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using test::offsetOf;
using test::spanAt;
using test::TempDir;

const char BaselineCode[] = "void f(torch::Tensor x, torch::Device d) {\n"
                    "  x.to(d);\n"
                    "  auto y = x * 2;\n"
                    "  x.to(d);\n"
                    "}\n";

/// A finding at the \p Occurrence-th \p Needle of \p Text in \p File, with a
/// note at \p NoteNeedle if given.
Finding at(const std::string &File, const std::string &Text,
           const std::string &Needle, unsigned Occurrence = 0,
           const std::string &NoteNeedle = "") {
  Finding F;
  F.Check = "device-discarded-to";
  F.Message = "result of 'to' is discarded";
  F.Where = spanAt(File, offsetOf(Text, Needle, Occurrence));
  if (!NoteNeedle.empty())
    F.Notes.push_back({spanAt(File, offsetOf(Text, NoteNeedle)), "used here", {}});
  return F;
}

TEST(Identify, RelativePathTrimmedLineAndOccurrences) {
  TempDir Dir;
  std::string File = Dir.write("src/a.cpp", BaselineCode);
  std::vector<FindingIdentity> Ids =
      identify({at(File, BaselineCode, "x.to(d)", 0), at(File, BaselineCode, "x.to(d)", 1)},
               Dir.path());
  ASSERT_EQ(Ids.size(), 2u);
  EXPECT_EQ(Ids[0].Rule, "device-discarded-to");
  EXPECT_EQ(Ids[0].Path, "src/a.cpp");
  EXPECT_EQ(Ids[0].Line, "x.to(d);");
  EXPECT_EQ(Ids[0].Hash.size(), 16u);
  // The same text twice: told apart by the occurrence, not the line.
  EXPECT_EQ(Ids[0].Hash, Ids[1].Hash);
  EXPECT_EQ(Ids[0].Occurrence, 1u);
  EXPECT_EQ(Ids[1].Occurrence, 2u);
  EXPECT_EQ(Ids[1].fingerprint(), Ids[1].Hash + ":2");
}

TEST(Identify, SurvivesLinesInsertedAboveAndReindenting) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", BaselineCode);
  FindingIdentity Before =
      identify({at(File, BaselineCode, "x.to(d)", 0, "x * 2")}, Dir.path())[0];
  std::string Edited = std::string("// new\n#include <vector>\n\n") + BaselineCode;
  Edited.replace(Edited.find("  x.to(d);"), 10, "\tx . to( d ) ;");
  Edited.replace(Edited.find("  auto y"), 8, "    auto    y");
  Dir.write("a.cpp", Edited);
  FindingIdentity After =
      identify({at(File, Edited, "x . to", 0, "x * 2")}, Dir.path())[0];
  EXPECT_EQ(Before.key(), After.key());
}

TEST(Identify, ANoteOnAChangedLineMakesItAnotherFinding) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", BaselineCode);
  FindingIdentity Before =
      identify({at(File, BaselineCode, "x.to(d)", 0, "x * 2")}, Dir.path())[0];
  std::string Edited = BaselineCode;
  Edited.replace(Edited.find("x * 2"), 5, "x * 3");
  Dir.write("a.cpp", Edited);
  FindingIdentity After =
      identify({at(File, Edited, "x.to(d)", 0, "x * 3")}, Dir.path())[0];
  EXPECT_NE(Before.Hash, After.Hash);
  // The rule and the file are part of it too.
  Finding Other = at(File, Edited, "x.to(d)", 0, "x * 3");
  Other.Check = "device-mismatch";
  EXPECT_NE(identify({Other}, Dir.path())[0].Hash, After.Hash);
}

TEST(Identify, PathOutsideTheRootStaysAbsolute) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", BaselineCode);
  EXPECT_EQ(identify({at(File, BaselineCode, "x.to(d)")}, "/elsewhere")[0].Path, File);
  EXPECT_EQ(relativeToRoot("/r/src/a.cpp", "/r/"), "src/a.cpp");
  EXPECT_EQ(relativeToRoot("/rx/a.cpp", "/r"), "/rx/a.cpp");
}

TEST(BaselineFile, SortedOneFindingALineAndReadBack) {
  TempDir Dir;
  std::string A = Dir.write("b/a.cpp", BaselineCode), Z = Dir.write("a/z.cpp", BaselineCode);
  std::vector<Finding> Findings = {at(A, BaselineCode, "x.to(d)", 0),
                                   at(A, BaselineCode, "x.to(d)", 1),
                                   at(Z, BaselineCode, "x.to(d)", 0)};
  Finding Error;
  Error.Check = "clang-diagnostic-error";
  Error.IsError = true;
  Error.Where = spanAt(A, 0);
  Findings.push_back(Error);
  std::vector<FindingIdentity> Ids = identify(Findings, Dir.path());
  std::string Path = Dir.file("baseline.json");
  ASSERT_FALSE(bool(writeBaseline(Path, Findings, Ids)));
  std::string Text = test::readFile(Path);
  EXPECT_EQ(Text.find("clang-diagnostic-error"), std::string::npos) << Text;
  // a/z.cpp sorts first; each entry is one line.
  size_t First = Text.find("\"path\":\"a/z.cpp\"");
  size_t Second = Text.find("\"path\":\"b/a.cpp\"");
  ASSERT_NE(First, std::string::npos) << Text;
  EXPECT_LT(First, Second);
  EXPECT_EQ(std::count(Text.begin(), Text.end(), '\n'), 4 + 3 + 2) << Text;
  EXPECT_NE(Text.find("{\"rule\":\"device-discarded-to\",\"path\":\"a/z.cpp\","
                      "\"hash\":\"" + Ids[2].Hash +
                      "\",\"occurrence\":1,\"line\":\"x.to(d);\"}"),
            std::string::npos)
      << Text;

  auto Read = readBaseline(Path);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ASSERT_EQ(Read->size(), 3u);
  EXPECT_EQ((*Read)[0].key(), Ids[2].key());
  EXPECT_EQ((*Read)[1].key(), Ids[0].key());
  EXPECT_EQ((*Read)[2].key(), Ids[1].key());
  EXPECT_EQ((*Read)[2].Line, "x.to(d);");
}

TEST(BaselineFile, EmptyBaselineIsValid) {
  TempDir Dir;
  std::string Path = Dir.write("b.json", formatBaseline({}));
  auto Read = readBaseline(Path);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  EXPECT_TRUE(Read->empty());
}

TEST(BaselineFile, BadFilesAreOneLineErrorsNamingThem) {
  TempDir Dir;
  const char *Bad[] = {
      "[1, 2",
      "[]",
      R"({"format": "torch-tidy-baseline", "version": 2, "findings": []})",
      R"({"format": "torch-tidy-baseline", "version": "1", "findings": []})",
      R"({"format": 7, "version": 1, "findings": []})",
      R"({"format": "torch-tidy-baseline", "version": 1, "findings": {}})",
      R"({"format": "torch-tidy-baseline", "version": 1, "findings": [)"
      R"({"rule": "r", "path": "p", "hash": "h", "occurrence": 0}]})",
      R"({"format": "torch-tidy-baseline", "version": 1, "findings": [)"
      R"({"rule": "r", "path": 3, "hash": "h", "occurrence": 1}]})",
      R"({"format": "torch-tidy-baseline", "version": 1, "findings": [7]})",
  };
  for (const char *Text : Bad) {
    std::string Path = Dir.write("bad.json", Text);
    auto Read = readBaseline(Path);
    ASSERT_FALSE(bool(Read)) << Text;
    std::string Message = llvm::toString(Read.takeError());
    EXPECT_NE(Message.find(Path), std::string::npos) << Message;
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  }
  auto Missing = readBaseline(Dir.file("none.json"));
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("none.json"),
            std::string::npos);
}

TEST(CompareWithBaseline, UnchangedNewAndAbsent) {
  TempDir Dir;
  std::string A = Dir.write("a.cpp", BaselineCode), B = Dir.write("b.cpp", BaselineCode);
  std::vector<Finding> Old = {at(A, BaselineCode, "x.to(d)", 0),
                              at(A, BaselineCode, "x.to(d)", 1),
                              at(B, BaselineCode, "x.to(d)", 0)};
  std::vector<FindingIdentity> Baseline = identify(Old, Dir.path());
  // Now: a.cpp's second is fixed, b.cpp's is unchanged, a new one in b.cpp.
  std::vector<Finding> Now = {at(A, BaselineCode, "x.to(d)", 0),
                              at(B, BaselineCode, "x.to(d)", 0),
                              at(B, BaselineCode, "x.to(d)", 1)};
  std::vector<FindingIdentity> Ids = identify(Now, Dir.path());
  BaselineComparison C =
      compareWithBaseline(Now, Ids, Baseline, std::nullopt);
  EXPECT_EQ(C.Unchanged, (std::vector<bool>{true, true, false}));
  ASSERT_EQ(C.Absent.size(), 1u);
  EXPECT_EQ(C.Absent[0].key(), Baseline[1].key());

  // Only the files analysed can have fixed findings.
  BaselineComparison OnlyB = compareWithBaseline(
      Now, Ids, Baseline, std::set<std::string>{"b.cpp"});
  EXPECT_TRUE(OnlyB.Absent.empty());
}

TEST(CompareWithBaseline, CompilerErrorsAlwaysCount) {
  TempDir Dir;
  std::string A = Dir.write("a.cpp", BaselineCode);
  Finding Error = at(A, BaselineCode, "x.to(d)");
  Error.Check = "clang-diagnostic-error";
  Error.IsError = true;
  std::vector<FindingIdentity> Ids = identify({Error}, Dir.path());
  // A baseline edited by hand to hold it.
  BaselineComparison C = compareWithBaseline({Error}, Ids, Ids, std::nullopt);
  EXPECT_EQ(C.Unchanged, std::vector<bool>{false});
}

} // namespace
} // namespace torch_tidy
