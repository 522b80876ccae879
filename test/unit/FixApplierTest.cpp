//===--- FixApplierTest.cpp - Applying fix-its to files -------------------===//

#include "FixApplier.h"
#include "TestFiles.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>
#include <unistd.h>

namespace torch_tidy {
namespace {

using test::offsetOf;
using test::readFile;
using test::spanAt;
using test::TempDir;

const char TwoMoves[] = "void f(T a, T b) {\n  a.to(d);\n  b.cuda();\n}\n";

Finding withFixes(std::vector<Edit> Fixes) {
  Finding F;
  F.Check = "device-discarded-to";
  F.Message = "m";
  F.Fixes = std::move(Fixes);
  if (!F.Fixes.empty())
    F.Where = F.Fixes.front().Where;
  return F;
}

Edit insert(const std::string &File, unsigned Offset, const std::string &Text) {
  return {spanAt(File, Offset), Text};
}

Edit replace(const std::string &File, unsigned Offset, unsigned Length,
             const std::string &Text) {
  return {spanAt(File, Offset, Length), Text};
}

TEST(FixApplier, AppliesNonOverlappingFixes) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", TwoMoves);
  std::string Text = TwoMoves;
  FixSummary Summary = applyFixes(
      {withFixes({insert(File, offsetOf(Text, "a.to"), "a = ")}),
       withFixes({insert(File, offsetOf(Text, "b.cuda"), "b = ")}),
       withFixes({})});
  EXPECT_EQ(Summary.Suggested, 2u);
  EXPECT_EQ(Summary.Applied, 2u);
  EXPECT_TRUE(Summary.Errors.empty());
  EXPECT_EQ(readFile(File),
            "void f(T a, T b) {\n  a = a.to(d);\n  b = b.cuda();\n}\n");
}

TEST(FixApplier, SkipsAFindingThatOverlapsAnEarlierOneWhole) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", TwoMoves);
  std::string Text = TwoMoves;
  unsigned To = offsetOf(Text, "to(d)");
  unsigned Cuda = offsetOf(Text, "cuda()");
  FixSummary Summary = applyFixes({
      withFixes({replace(File, To, 5, "cpu()")}),
      // Its second edit overlaps the first finding's: none of it is applied,
      // not even the edit on the other line.
      withFixes({replace(File, Cuda, 4, "cpu"), replace(File, To, 2, "xx")}),
  });
  EXPECT_EQ(Summary.Suggested, 2u);
  EXPECT_EQ(Summary.Applied, 1u);
  EXPECT_TRUE(Summary.Errors.empty());
  EXPECT_EQ(readFile(File),
            "void f(T a, T b) {\n  a.cpu();\n  b.cuda();\n}\n");
}

TEST(FixApplier, FixesInTwoFiles) {
  TempDir Dir;
  std::string A = Dir.write("a.cpp", "x.to(d);\n");
  std::string B = Dir.write("b.cpp", "y.to(d);\n");
  FixSummary Summary = applyFixes({withFixes({insert(A, 0, "x = ")}),
                                   withFixes({insert(B, 0, "y = ")})});
  EXPECT_EQ(Summary.Applied, 2u);
  EXPECT_EQ(readFile(A), "x = x.to(d);\n");
  EXPECT_EQ(readFile(B), "y = y.to(d);\n");
}

TEST(FixApplier, TheSameFixTwiceIsAppliedOnce) {
  // A finding in a header seen from two translation units.
  TempDir Dir;
  std::string File = Dir.write("a.h", "x.to(d);\n");
  Finding F = withFixes({insert(File, 0, "x = ")});
  FixSummary Summary = applyFixes({F, F});
  EXPECT_EQ(readFile(File), "x = x.to(d);\n");
  EXPECT_TRUE(Summary.Errors.empty());
}

TEST(FixApplier, KeepsPermissionsAndLeavesNoTemporaries) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", TwoMoves);
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      File, static_cast<llvm::sys::fs::perms>(0751)));
  FixSummary Summary = applyFixes(
      {withFixes({insert(File, offsetOf(TwoMoves, "a.to"), "a = ")})});
  EXPECT_EQ(Summary.Applied, 1u);
  auto Perms = llvm::sys::fs::getPermissions(File);
  ASSERT_TRUE(bool(Perms));
  EXPECT_EQ(static_cast<unsigned>(*Perms), 0751u);
  EXPECT_EQ(Dir.list(), std::vector<std::string>{"a.cpp"});
}

TEST(FixApplier, AMissingFileIsReportedNotFatal) {
  TempDir Dir;
  std::string Gone = Dir.file("gone.cpp");
  std::string Here = Dir.write("here.cpp", "x.to(d);\n");
  FixSummary Summary = applyFixes(
      {withFixes({insert(Gone, 0, "x = ")}), withFixes({insert(Here, 0, "x = ")})});
  ASSERT_EQ(Summary.Errors.size(), 1u);
  EXPECT_NE(Summary.Errors[0].find("gone.cpp"), std::string::npos);
  EXPECT_EQ(readFile(Here), "x = x.to(d);\n");
}

TEST(FixApplier, FixNotesAppliesTheOneNoteWithFixes) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", TwoMoves);
  std::string Text = TwoMoves;
  auto WithNotes = [&](std::vector<std::vector<Edit>> NoteEdits) {
    Finding F = withFixes({});
    for (auto &Edits : NoteEdits)
      F.Notes.push_back({spanAt(File, 0), "n", std::move(Edits)});
    return F;
  };
  Finding One = WithNotes({{}, {insert(File, offsetOf(Text, "a.to"), "a = ")}});
  // Two notes with fixes are alternatives: neither is applied.
  Finding Two = WithNotes({{insert(File, offsetOf(Text, "b.cuda"), "b = ")},
                           {insert(File, offsetOf(Text, "b.cuda"), "c = ")}});
  EXPECT_EQ(applyFixes({One, Two}).Suggested, 0u);
  EXPECT_EQ(readFile(File), TwoMoves);
  FixSummary Summary = applyFixes({One, Two}, /*FixNotes=*/true);
  EXPECT_EQ(Summary.Suggested, 1u);
  EXPECT_EQ(Summary.Applied, 1u);
  EXPECT_EQ(readFile(File),
            "void f(T a, T b) {\n  a = a.to(d);\n  b.cuda();\n}\n");
}

TEST(WriteFileAtomically, ReplacesContentsAndKeepsPermissions) {
  TempDir Dir;
  std::string File = Dir.write("out.txt", "old");
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      File, static_cast<llvm::sys::fs::perms>(0640)));
  ASSERT_FALSE(bool(writeFileAtomically(File, "new contents")));
  EXPECT_EQ(readFile(File), "new contents");
  EXPECT_EQ(static_cast<unsigned>(*llvm::sys::fs::getPermissions(File)), 0640u);
  EXPECT_EQ(Dir.list(), std::vector<std::string>{"out.txt"});
}

TEST(WriteFileAtomically, CreatesANewFile) {
  TempDir Dir;
  std::string File = Dir.file("new.json");
  ASSERT_FALSE(bool(writeFileAtomically(File, "[]\n")));
  EXPECT_EQ(readFile(File), "[]\n");
  EXPECT_EQ(Dir.list(), std::vector<std::string>{"new.json"});
}

TEST(WriteFileAtomically, MissingDirectoryIsAnErrorNamingThePath) {
  TempDir Dir;
  std::string File = Dir.file("no/such/dir/out.sarif");
  llvm::Error Err = writeFileAtomically(File, "x");
  ASSERT_TRUE(bool(Err));
  std::string Message = llvm::toString(std::move(Err));
  EXPECT_NE(Message.find(File), std::string::npos) << Message;
  EXPECT_TRUE(Dir.list().empty());
}

TEST(WriteFileAtomically, FailedRenameLeavesTheOriginalAndNoTemporary) {
  // The target is a non-empty directory: the rename fails even for root.
  TempDir Dir;
  std::string Target = Dir.file("target");
  Dir.write("target/keep.txt", "keep");
  llvm::Error Err = writeFileAtomically(Target, "x");
  ASSERT_TRUE(bool(Err));
  std::string Message = llvm::toString(std::move(Err));
  EXPECT_NE(Message.find(Target), std::string::npos) << Message;
  EXPECT_EQ(readFile(Dir.file("target/keep.txt")), "keep");
  EXPECT_EQ(Dir.list(), std::vector<std::string>{"target"});
}

TEST(WriteFileAtomically, UnwritableDirectoryLeavesTheOriginalIntact) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root writes to read-only directories";
  TempDir Dir;
  std::string File = Dir.write("ro/a.cpp", "original");
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      Dir.file("ro"), static_cast<llvm::sys::fs::perms>(0555)));
  llvm::Error Err = writeFileAtomically(File, "changed");
  llvm::sys::fs::setPermissions(Dir.file("ro"), llvm::sys::fs::all_all);
  ASSERT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));
  EXPECT_EQ(readFile(File), "original");
  EXPECT_EQ(Dir.list("ro"), std::vector<std::string>{"a.cpp"});
}

TEST(WriteFileAtomically, WritesThroughASymlink) {
  // Editors and build systems link sources; a fix must change the file the
  // link points to and keep the link.
  TempDir Dir;
  std::string Real = Dir.write("real.cpp", "old");
  std::string Link = Dir.file("link.cpp");
  ASSERT_FALSE(llvm::sys::fs::create_link(Real, Link));
  ASSERT_FALSE(bool(writeFileAtomically(Link, "new")));
  EXPECT_EQ(readFile(Real), "new");
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(Link, Status, /*follow=*/false));
  EXPECT_EQ(Status.type(), llvm::sys::fs::file_type::symlink_file);
}

} // namespace
} // namespace torch_tidy
