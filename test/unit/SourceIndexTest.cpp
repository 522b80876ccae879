//===--- SourceIndexTest.cpp - Offsets to lines and columns; ordering -----===//

#include "Finding.h"
#include "TestFiles.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using test::TempDir;

Span located(SourceIndex &Index, const std::string &File, unsigned Offset,
             unsigned Length = 0) {
  Span S{File, Offset, Length};
  Index.locate(S);
  return S;
}

TEST(SourceIndex, MapsOffsetsToOneBasedLinesAndColumns) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\n  int b;\n\nint c;\n");
  SourceIndex Index;
  Span First = located(Index, File, 0);
  EXPECT_EQ(First.Line, 1u);
  EXPECT_EQ(First.Column, 1u);
  Span B = located(Index, File, 9); // 'i' of "  int b;"
  EXPECT_EQ(B.Line, 2u);
  EXPECT_EQ(B.Column, 3u);
  Span Newline = located(Index, File, 6); // the '\n' ending line 1
  EXPECT_EQ(Newline.Line, 1u);
  EXPECT_EQ(Newline.Column, 7u);
  Span Empty = located(Index, File, 16); // the empty line 3
  EXPECT_EQ(Empty.Line, 3u);
  EXPECT_EQ(Empty.Column, 1u);
  Span C = located(Index, File, 17);
  EXPECT_EQ(C.Line, 4u);
  EXPECT_EQ(C.Column, 1u);
}

TEST(SourceIndex, ContentsGivenInsteadOfTheFileOnDisk) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\n");
  SourceIndex Index;
  Index.useContents(File, "\n\nint a;\n"); // an unsaved edit: two lines above
  Span A = located(Index, File, 2);
  EXPECT_EQ(A.Line, 3u);
  EXPECT_EQ(A.Column, 1u);
}

TEST(SourceIndex, EndOfARangeCanBeOnALaterLine) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\n  int b;\n");
  SourceIndex Index;
  Span S = located(Index, File, 4, 7); // "a;\n  in"
  EXPECT_EQ(S.Line, 1u);
  EXPECT_EQ(S.Column, 5u);
  EXPECT_EQ(S.EndLine, 2u);
  EXPECT_EQ(S.EndColumn, 5u);
  Span Empty = located(Index, File, 9, 0);
  EXPECT_EQ(Empty.EndLine, Empty.Line);
  EXPECT_EQ(Empty.EndColumn, Empty.Column);
}

TEST(SourceIndex, LastLineWithoutNewline) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\nx.to(d);");
  SourceIndex Index;
  Span S = located(Index, File, 9, 6); // "to(d);" up to the end of the file
  EXPECT_EQ(S.Line, 2u);
  EXPECT_EQ(S.Column, 3u);
  EXPECT_EQ(S.EndLine, 2u);
  EXPECT_EQ(S.EndColumn, 9u);
}

TEST(SourceIndex, ColumnsCountBytesAsClangDoes) {
  TempDir Dir;
  // "é" is two bytes in UTF-8; clang's columns (and so clang-tidy's text
  // output) count bytes.
  std::string Text = "// \xC3\xA9\nauto s = \"\xC3\xA9\"; x.to(d);\n";
  std::string File = Dir.write("a.cpp", Text);
  SourceIndex Index;
  Span S = located(Index, File, test::offsetOf(Text, "x.to"));
  EXPECT_EQ(S.Line, 2u);
  EXPECT_EQ(S.Column, 16u);
}

TEST(SourceIndex, CrLfLineEndings) {
  TempDir Dir;
  std::string File = Dir.write("a.cpp", "int a;\r\nint b;\r\n");
  SourceIndex Index;
  Span S = located(Index, File, 8);
  EXPECT_EQ(S.Line, 2u);
  EXPECT_EQ(S.Column, 1u);
}

TEST(SourceIndex, EmptyFileNameIsLeftAlone) {
  SourceIndex Index;
  Span S = located(Index, "", 42);
  EXPECT_EQ(S.Line, 0u);
  EXPECT_EQ(S.Column, 0u);
}

TEST(SourceIndex, UnreadableFileDoesNotCrash) {
  SourceIndex Index;
  Span S = located(Index, "/nonexistent/torch-tidy/file.cpp", 3);
  EXPECT_EQ(S.Line, 1u);
  EXPECT_EQ(S.Column, 4u);
}

Finding finding(const std::string &File, unsigned Offset,
                const std::string &Check, const std::string &Message = "m") {
  Finding F;
  F.Check = Check;
  F.Message = Message;
  F.Where.File = File;
  F.Where.Offset = Offset;
  return F;
}

TEST(SortAndDeduplicate, OrdersByFileOffsetAndCheck) {
  std::vector<Finding> Findings = {
      finding("/b.cpp", 5, "device-discarded-to"),
      finding("/a.cpp", 40, "device-discarded-to"),
      finding("/a.cpp", 7, "device-loop-copy-to"),
      finding("/a.cpp", 7, "device-discarded-to"),
  };
  sortAndDeduplicate(Findings);
  ASSERT_EQ(Findings.size(), 4u);
  EXPECT_EQ(Findings[0].Where.File, "/a.cpp");
  EXPECT_EQ(Findings[0].Where.Offset, 7u);
  EXPECT_EQ(Findings[0].Check, "device-discarded-to");
  EXPECT_EQ(Findings[1].Check, "device-loop-copy-to");
  EXPECT_EQ(Findings[2].Where.Offset, 40u);
  EXPECT_EQ(Findings[3].Where.File, "/b.cpp");
}

TEST(SortAndDeduplicate, DropsTheSameFindingReportedTwice) {
  // A header included by two translation units reports its finding twice.
  Finding First = finding("/h.h", 10, "device-discarded-to", "msg");
  First.Notes.push_back({{"/h.h", 20}, "note"});
  std::vector<Finding> Findings = {
      First, finding("/a.cpp", 1, "device-discarded-to"),
      finding("/h.h", 10, "device-discarded-to", "msg"),
      finding("/h.h", 10, "device-discarded-to", "another message")};
  sortAndDeduplicate(Findings);
  ASSERT_EQ(Findings.size(), 3u);
  EXPECT_EQ(Findings[0].Where.File, "/a.cpp");
  EXPECT_EQ(Findings[1].Message, "another message");
  EXPECT_EQ(Findings[2].Message, "msg");
  // The first of the duplicates is kept, with its notes.
  EXPECT_EQ(Findings[2].Notes.size(), 1u);
}

TEST(SortAndDeduplicate, EmptyIsFine) {
  std::vector<Finding> Findings;
  sortAndDeduplicate(Findings);
  EXPECT_TRUE(Findings.empty());
}

TEST(ToFinding, ResolvesFilesRelativeToTheBuildDirectory) {
  // Meson's database names "../src/x.cpp" in "directory": "<root>/build";
  // clang reports every position with that relative name.
  TempDir Dir;
  std::string Source = Dir.write("src/x.cpp", "int a;\nint b;\n");
  clang::tidy::ClangTidyError Error("device-discarded-to",
                                    clang::tidy::ClangTidyError::Warning,
                                    Dir.file("build"), false);
  Error.Message.Message = "message";
  Error.Message.FilePath = "../src/x.cpp";
  Error.Message.FileOffset = 11;
  clang::tooling::FileByteRange Range;
  Range.FilePath = "../src/x.cpp";
  Range.FileOffset = 11;
  Range.Length = 1;
  Error.Message.Ranges.push_back(Range);
  llvm::consumeError(Error.Message.Fix["../src/x.cpp"].add(
      clang::tooling::Replacement("../src/x.cpp", 7, 0, "const ")));
  clang::tooling::DiagnosticMessage Note;
  Note.Message = "note";
  Note.FilePath = "../src/x.cpp";
  Note.FileOffset = 4;
  Error.Notes.push_back(Note);

  SourceIndex Index;
  Finding F = toFinding(Error, Index);
  EXPECT_EQ(F.Where.File, Source);
  EXPECT_EQ(F.Where.Line, 2u);
  EXPECT_EQ(F.Where.Column, 5u);
  ASSERT_EQ(F.Ranges.size(), 1u);
  EXPECT_EQ(F.Ranges[0].File, Source);
  ASSERT_EQ(F.Fixes.size(), 1u);
  EXPECT_EQ(F.Fixes[0].Where.File, Source);
  EXPECT_EQ(F.Fixes[0].Where.Line, 2u);
  ASSERT_EQ(F.Notes.size(), 1u);
  EXPECT_EQ(F.Notes[0].Where.File, Source);
  EXPECT_EQ(F.Notes[0].Where.Line, 1u);
  EXPECT_EQ(F.Notes[0].Where.Column, 5u);
}

TEST(ToFinding, KeepsAbsoluteAndEmptyPaths) {
  clang::tidy::ClangTidyError Error("clang-diagnostic-error",
                                    clang::tidy::ClangTidyError::Error,
                                    "/build", false);
  Error.Message.FilePath = "";
  SourceIndex Index;
  EXPECT_EQ(toFinding(Error, Index).Where.File, "");
  Error.Message.FilePath = "/elsewhere/x.cpp";
  EXPECT_EQ(toFinding(Error, Index).Where.File, "/elsewhere/x.cpp");
}

} // namespace
} // namespace torch_tidy
