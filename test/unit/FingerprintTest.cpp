//===--- FingerprintTest.cpp - GitHub's primaryLocationLineHash -----------===//
//
// The expected values are not produced by the code under test: each is
// sum(c[i] * 37^(99 - i)) mod 2^64 over the line's first 100 UTF-16 units
// (spaces and tabs skipped, the end of the file 65535, then zeros), worked
// out with arbitrary-precision integers, e.g. in Python:
//   format((97*37**99 + 10*37**98 + 65535*37**97) % 2**64, 'x')
// for the first line of "a\n".
//
//===----------------------------------------------------------------------===//

#include "Fingerprint.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

TEST(LineHashes, OneLineAndTheEndOfTheFile) {
  LineHashes Hashes("a\n");
  EXPECT_EQ(Hashes.forLine(1), "243cbaa4685aab12:1");
  // After the last newline the end of the file starts a line of its own.
  EXPECT_EQ(Hashes.forLine(2), "c129715d7a2bc9a3:1"); // 65535 * 37^99
  EXPECT_EQ(Hashes.forLine(3), "");
  EXPECT_EQ(Hashes.forLine(0), "");
}

TEST(LineHashes, EmptyFileHasTheEndOfFileLine) {
  EXPECT_EQ(LineHashes("").forLine(1), "c129715d7a2bc9a3:1");
}

TEST(LineHashes, SpacesAndTabsAreSkippedAndLineEndingsNormalised) {
  const char *Same[] = {"ab;\n", "  a b;\n", "\ta\t b ;\n", "ab;\r\n",
                        "ab;\r"};
  for (const char *Text : Same)
    EXPECT_EQ(LineHashes(Text).forLine(1), "7beac4b803dae933:1") << Text;
}

TEST(LineHashes, TheWindowRunsIntoTheNextLines) {
  // "x\nx\n": line 1 hashes "x\nx\n<EOF>", line 2 only "x\n<EOF>".
  LineHashes Hashes("x\nx\n");
  EXPECT_NE(Hashes.forLine(1), Hashes.forLine(2));
  EXPECT_EQ(Hashes.forLine(2), LineHashes("x\n").forLine(1));
}

TEST(LineHashes, RepeatedWindowsAreCounted) {
  // Three lines of 120 'y': each line's window is 100 'y's.
  std::string Line(120, 'y');
  LineHashes Hashes(Line + "\n" + Line + "\n" + Line + "\n");
  EXPECT_EQ(Hashes.forLine(1), "cadd4b5b9d92c51c:1");
  EXPECT_EQ(Hashes.forLine(2), "cadd4b5b9d92c51c:2");
  EXPECT_EQ(Hashes.forLine(3), "cadd4b5b9d92c51c:3");
  EXPECT_EQ(Hashes.forLine(4), "c129715d7a2bc9a3:1");
}

TEST(LineHashes, CountsUtf16CodeUnits) {
  EXPECT_EQ(LineHashes("\xC3\xA9\n").forLine(1), "46b47b20627f8c7a:1");
  // U+1F600 is the surrogate pair D83D DE00.
  EXPECT_EQ(LineHashes("\xF0\x9F\x98\x80\n").forLine(1), "49e42825ed591e1a:1");
  // A byte that is not UTF-8 reads as U+FFFD.
  EXPECT_EQ(LineHashes("\xFF\n").forLine(1), "a88b3c201b7e6ebe:1");
}

TEST(DecodeUtf8, ReplacesEachMaximalInvalidSubsequence) {
  EXPECT_EQ(decodeUtf8("a\xC3\xA9"), u"a\u00E9");
  // A truncated three-byte sequence is one U+FFFD; the byte after it counts.
  EXPECT_EQ(decodeUtf8("\xE2\x82" "a"), u"\uFFFDa");
  // A surrogate encoded in UTF-8 (ED A0 80) is three errors.
  EXPECT_EQ(decodeUtf8("\xED\xA0\x80"), u"\uFFFD\uFFFD\uFFFD");
  EXPECT_EQ(decodeUtf8("\xC0\xAF"), u"\uFFFD\uFFFD"); // overlong '/'
  EXPECT_EQ(decodeUtf8("\xF0\x9F\x98"), u"\uFFFD"); // cut at the end
}

} // namespace
} // namespace torch_tidy
