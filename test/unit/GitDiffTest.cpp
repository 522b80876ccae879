//===--- GitDiffTest.cpp - Changed lines of a unified diff ----------------===//

#include "GitDiff.h"
#include "TestFiles.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using Ranges = std::vector<clang::tidy::FileFilter::LineRange>;

const clang::tidy::FileFilter *entry(const LineFilter &Filter,
                                     const std::string &Name) {
  for (const auto &F : Filter)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

TEST(AddedLines, GitDiffWithPrefixesNewAndDeletedFiles) {
  const char Patch[] = R"(diff --git a/src/a.cpp b/src/a.cpp
index 1111111..2222222 100644
--- a/src/a.cpp
+++ b/src/a.cpp
@@ -1,0 +2,2 @@ int a;
+// two lines
+// inserted
@@ -10 +12 @@ void f() {
-  x.to(d);
+  x = x.to(d);
@@ -20,3 +21,0 @@
-gone
-gone
-gone
diff --git a/src/new.h b/src/new.h
new file mode 100644
--- /dev/null
+++ b/src/new.h
@@ -0,0 +1,3 @@
+#pragma once
+
+int n;
diff --git a/src/old.cpp b/src/old.cpp
deleted file mode 100644
--- a/src/old.cpp
+++ /dev/null
@@ -1,2 +0,0 @@
-int o;
-int p;
diff --git a/src/trimmed.cpp b/src/trimmed.cpp
--- a/src/trimmed.cpp
+++ b/src/trimmed.cpp
@@ -4,2 +3,0 @@
-a
-b
)";
  LineFilter Filter = addedLines(Patch, "/repo");
  ASSERT_EQ(Filter.size(), 2u);
  const auto *A = entry(Filter, "/repo/src/a.cpp");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->LineRanges, (Ranges{{2, 3}, {12, 12}}));
  const auto *New = entry(Filter, "/repo/src/new.h");
  ASSERT_TRUE(New);
  EXPECT_EQ(New->LineRanges, (Ranges{{1, 3}}));
  // Losing lines only, or being deleted, adds none: no entry, which in a
  // line filter would mean every line.
  EXPECT_FALSE(entry(Filter, "/repo/src/trimmed.cpp"));
  EXPECT_FALSE(entry(Filter, "/repo/src/old.cpp"));
}

TEST(AddedLines, NoPrefixQuotedPathsAndPlainDiffs) {
  const char NoPrefix[] = "diff --git src/b/x.cpp src/b/x.cpp\n"
                          "--- src/b/x.cpp\n+++ src/b/x.cpp\n"
                          "@@ -1 +1 @@\n-a\n+b\n";
  EXPECT_TRUE(entry(addedLines(NoPrefix, "/r"), "/r/src/b/x.cpp"));
  const char Quoted[] = "diff --git \"a/s p\\303\\251.cpp\" \"b/s p\\303\\251.cpp\"\n"
                        "--- \"a/s p\\303\\251.cpp\"\n"
                        "+++ \"b/s p\\303\\251.cpp\"\n@@ -1 +1,2 @@\n-a\n+b\n+c\n";
  // entry() points into the filter list: keep it alive.
  const auto QuotedFilter = addedLines(Quoted, "/r");
  const auto *Q = entry(QuotedFilter, "/r/s p\xC3\xA9.cpp");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->LineRanges, (Ranges{{1, 2}}));
  // diff -u: no "diff --git", so "b/" is a directory; a timestamp follows.
  const char Plain[] = "--- b/x.cpp\t2024-01-01 00:00:00\n"
                       "+++ b/x.cpp\t2024-01-02 00:00:00\n@@ -3,0 +4 @@\n+y\n";
  const auto PlainFilter = addedLines(Plain, "/r");
  const auto *P = entry(PlainFilter, "/r/b/x.cpp");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->LineRanges, (Ranges{{4, 4}}));
  EXPECT_TRUE(addedLines("", "/r").empty());
}

TEST(FilesForChange, ChangedFilesOfTheDatabaseOrAllForAHeader) {
  std::vector<std::string> Files = {"/r/a.cpp", "/r/b.cpp", "/r/c.cpp"};
  LineFilter Sources = {{"/r/c.cpp", {{1, 1}}}, {"/r/a.cpp", {{2, 2}}},
                        {"/r/README.md", {{1, 1}}}};
  EXPECT_EQ(filesForChange(Files, Sources),
            (std::vector<std::string>{"/r/a.cpp", "/r/c.cpp"}));
  LineFilter Header = {{"/r/a.cpp", {{2, 2}}}, {"/r/include/net.HPP", {{1, 1}}}};
  EXPECT_EQ(filesForChange(Files, Header), Files);
  EXPECT_TRUE(filesForChange(Files, {}).empty());
}

/// Runs git in \p Dir; true when it succeeds.
bool git(const std::string &Dir, std::vector<llvm::StringRef> Args) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return false;
  Args.insert(Args.begin(), {*Git, "-C", Dir, "-c", "user.name=t", "-c",
                             "user.email=t@t"});
  std::optional<llvm::StringRef> Quiet[] = {llvm::StringRef(""),
                                            llvm::StringRef(""),
                                            llvm::StringRef("")};
  return llvm::sys::ExecuteAndWait(*Git, Args, std::nullopt, Quiet) == 0;
}

/// Changes the current directory for a test, and back.
struct InDirectory {
  llvm::SmallString<256> Before;
  explicit InDirectory(const std::string &Dir) {
    llvm::sys::fs::current_path(Before);
    llvm::sys::fs::set_current_path(Dir);
  }
  ~InDirectory() { llvm::sys::fs::set_current_path(Before); }
};

TEST(GitDiffTest, AgainstARevisionAndTheUpstreamMergeBase) {
  test::TempDir Dir;
  std::string Root = Dir.path();
  Dir.write("a.cpp", "int a;\nint b;\n");
  ASSERT_TRUE(git(Root, {"init", "-q", "-b", "main"}));
  ASSERT_TRUE(git(Root, {"add", "a.cpp"}));
  ASSERT_TRUE(git(Root, {"commit", "-q", "-m", "A"}));
  Dir.write("a.cpp", "int a;\nint inserted;\nint b;\n");
  InDirectory Here(Root);

  auto Diff = gitDiff("HEAD");
  ASSERT_TRUE(bool(Diff)) << llvm::toString(Diff.takeError());
  LineFilter Filter = addedLines(Diff->Patch, Diff->TopLevel);
  llvm::SmallString<256> Real;
  llvm::sys::fs::real_path(Root, Real);
  ASSERT_EQ(Filter.size(), 1u);
  EXPECT_EQ(Filter[0].Name, std::string(Real) + "/a.cpp");
  EXPECT_EQ(Filter[0].LineRanges, (Ranges{{2, 2}}));

  // No upstream: a one-line error that says what to give.
  auto NoUpstream = gitDiff("");
  ASSERT_FALSE(bool(NoUpstream));
  std::string Message = llvm::toString(NoUpstream.takeError());
  EXPECT_NE(Message.find("--diff=REV"), std::string::npos) << Message;
  EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;

  // A branch that tracks main: the merge base is A.
  ASSERT_TRUE(git(Root, {"checkout", "-q", "-b", "topic", "--track", "main"}));
  auto Upstream = gitDiff("");
  ASSERT_TRUE(bool(Upstream)) << llvm::toString(Upstream.takeError());
  EXPECT_EQ(addedLines(Upstream->Patch, Upstream->TopLevel)[0].LineRanges,
            (Ranges{{2, 2}}));

  auto Unknown = gitDiff("no-such-revision");
  ASSERT_FALSE(bool(Unknown));
  llvm::consumeError(Unknown.takeError());
  auto Option = gitDiff("--output=/tmp/x");
  ASSERT_FALSE(bool(Option));
  EXPECT_NE(llvm::toString(Option.takeError()).find("cannot start with '-'"),
            std::string::npos);
}

} // namespace
} // namespace torch_tidy
