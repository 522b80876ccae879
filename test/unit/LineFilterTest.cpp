//===--- LineFilterTest.cpp - clang-tidy's --line-filter ------------------===//

#include "LineFilter.h"
#include "TestFiles.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

Finding findingAt(const std::string &File, unsigned Line,
                  std::vector<std::pair<std::string, unsigned>> NoteLines = {}) {
  Finding F;
  F.Check = "device-discarded-to";
  F.Where.File = File;
  F.Where.Line = Line;
  for (auto &[NoteFile, NoteLine] : NoteLines) {
    Note N;
    N.Where.File = NoteFile;
    N.Where.Line = NoteLine;
    F.Notes.push_back(N);
  }
  return F;
}

LineFilter parsed(llvm::StringRef Json) {
  auto Filter = parseLineFilter(Json);
  EXPECT_TRUE(bool(Filter)) << llvm::toString(Filter.takeError());
  return Filter ? *Filter : LineFilter();
}

TEST(LineFilter, ClangTidysExample) {
  LineFilter Filter = parsed(
      R"([{"name":"file1.cpp","lines":[[1,3],[5,7]]},{"name":"file2.h"}])");
  ASSERT_EQ(Filter.size(), 2u);
  EXPECT_EQ(Filter[0].Name, "file1.cpp");
  EXPECT_EQ(Filter[0].LineRanges.size(), 2u);
  for (unsigned Line : {1u, 3u, 5u, 7u})
    EXPECT_TRUE(passesLineFilter(Filter, findingAt("/src/file1.cpp", Line)));
  for (unsigned Line : {4u, 8u})
    EXPECT_FALSE(passesLineFilter(Filter, findingAt("/src/file1.cpp", Line)));
  // A name without lines: every line of the file.
  EXPECT_TRUE(passesLineFilter(Filter, findingAt("/src/file2.h", 900)));
  // A file the filter does not name: nothing.
  EXPECT_FALSE(passesLineFilter(Filter, findingAt("/src/other.cpp", 1)));
}

TEST(LineFilter, NamesMatchAsSuffixesAndTheFirstMatchDecides) {
  LineFilter Filter = parsed(
      R"([{"name":"a.cpp","lines":[[1,1]]},{"name":"/src/a.cpp"}])");
  // clang-tidy stops at the first filter whose name ends the file name.
  EXPECT_FALSE(passesLineFilter(Filter, findingAt("/src/a.cpp", 5)));
  EXPECT_TRUE(passesLineFilter(Filter, findingAt("/src/a.cpp", 1)));
  EXPECT_TRUE(passesLineFilter(Filter, findingAt("/src/data.cpp", 1)));
}

TEST(LineFilter, ANoteOnAChosenLineLetsTheFindingThrough) {
  LineFilter Filter = parsed(R"([{"name":"/src/a.cpp","lines":[[10,10]]}])");
  EXPECT_FALSE(passesLineFilter(Filter, findingAt("/src/a.cpp", 20)));
  EXPECT_TRUE(passesLineFilter(
      Filter, findingAt("/src/a.cpp", 20, {{"/src/a.cpp", 10}})));
  EXPECT_FALSE(passesLineFilter(
      Filter, findingAt("/src/a.cpp", 20, {{"/src/b.cpp", 10}})));
}

TEST(LineFilter, ErrorsAndFindingsWithoutAFileAlwaysPass) {
  LineFilter Filter = parsed(R"([{"name":"x.cpp","lines":[[1,1]]}])");
  Finding Error = findingAt("/src/a.cpp", 5);
  Error.Check = "clang-diagnostic-error";
  Error.IsError = true;
  EXPECT_TRUE(passesLineFilter(Filter, Error));
  Finding AsError = findingAt("/src/a.cpp", 5);
  AsError.IsError = AsError.IsWarningAsError = true;
  EXPECT_FALSE(passesLineFilter(Filter, AsError));
  EXPECT_TRUE(passesLineFilter(Filter, findingAt("", 0)));
  EXPECT_TRUE(passesLineFilter({}, findingAt("/src/a.cpp", 5)));
}

TEST(LineFilter, InvalidFiltersAreOneLineErrors) {
  const char *Bad[] = {
      "[{\"name\": \"a.cpp\"",           // not JSON
      "{\"name\": \"a.cpp\"}",           // not an array
      "[{\"lines\": [[1, 2]]}]",         // no name
      "[{\"name\": \"\"}]",              // empty name
      "[{\"name\": \"a\", \"x\": 1}]",   // unknown key
      "[{\"name\": \"a\", \"lines\": [[0, 2]]}]",
      "[{\"name\": \"a\", \"lines\": [[1]]}]",
      "[{\"name\": \"a\", \"lines\": [[1, 2, 3]]}]",
      "[{\"name\": \"a\", \"lines\": [[1, \"2\"]]}]",
      "[{\"name\": \"a\", \"lines\": 3}]",
      "[3]",
  };
  for (const char *Json : Bad) {
    auto Filter = parseLineFilter(Json);
    ASSERT_FALSE(bool(Filter)) << Json;
    std::string Message = llvm::toString(Filter.takeError());
    EXPECT_NE(Message.find("--line-filter"), std::string::npos) << Message;
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  }
}

} // namespace
} // namespace torch_tidy
