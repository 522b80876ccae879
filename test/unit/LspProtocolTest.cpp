//===--- LspProtocolTest.cpp - Positions, changes, URIs, message framing --===//

#include "Protocol.h"
#include "Transport.h"
#include <cstdio>
#include <gtest/gtest.h>

namespace torch_tidy::lsp {
namespace {

using nlohmann::json;

json pos(unsigned Line, unsigned Character) {
  return {{"line", Line}, {"character", Character}};
}

// "é" is 2 bytes and 1 UTF-16 unit; "😀" 4 bytes, 2 UTF-16 units, 1 code point.
const char Text[] = "int a;\n// \xC3\xA9\xF0\x9F\x98\x80 x\n";
constexpr unsigned XOffset = 7 + 3 + 2 + 4 + 1; // the 'x' on line 1

TEST(LineTable, PositionsCountTheClientsCodeUnits) {
  LineTable Lines(Text);
  EXPECT_EQ(Lines.position(XOffset, PositionEncoding::Utf8), pos(1, 10));
  EXPECT_EQ(Lines.position(XOffset, PositionEncoding::Utf16), pos(1, 7));
  EXPECT_EQ(Lines.position(XOffset, PositionEncoding::Utf32), pos(1, 6));
  for (PositionEncoding E : {PositionEncoding::Utf8, PositionEncoding::Utf16,
                             PositionEncoding::Utf32})
    EXPECT_EQ(Lines.offset(Lines.position(XOffset, E), E), XOffset);
}

TEST(LineTable, OffsetsClampToTheLineAndTheText) {
  LineTable Lines(Text);
  // Past the end of line 0: its end, before the line break.
  EXPECT_EQ(Lines.offset(pos(0, 99), PositionEncoding::Utf16), 6u);
  // Past the last line: the end of the text.
  EXPECT_EQ(Lines.offset(pos(9, 0), PositionEncoding::Utf16),
            sizeof(Text) - 1);
  EXPECT_EQ(Lines.offset(json{{"line", -1}, {"character", 0}},
                         PositionEncoding::Utf16),
            std::nullopt);
  EXPECT_EQ(Lines.offset(json("0:0"), PositionEncoding::Utf16), std::nullopt);
}

TEST(LineTable, CarriageReturnsAreNotPartOfALine) {
  LineTable Lines("ab\r\ncd");
  EXPECT_EQ(Lines.line(0), "ab");
  EXPECT_EQ(Lines.line(1), "cd");
  EXPECT_EQ(Lines.offset(pos(0, 5), PositionEncoding::Utf8), 2u);
}

TEST(ApplyChange, IncrementalAndWholeChanges) {
  std::string Doc = "int a;\nint b;\n";
  json Insert = {{"range", {{"start", pos(1, 0)}, {"end", pos(1, 0)}}},
                 {"text", "// new\n"}};
  ASSERT_FALSE(bool(applyChange(Doc, Insert, PositionEncoding::Utf16)));
  EXPECT_EQ(Doc, "int a;\n// new\nint b;\n");
  json Replace = {{"range", {{"start", pos(0, 4)}, {"end", pos(0, 5)}}},
                  {"text", "alpha"}};
  ASSERT_FALSE(bool(applyChange(Doc, Replace, PositionEncoding::Utf16)));
  EXPECT_EQ(Doc, "int alpha;\n// new\nint b;\n");
  ASSERT_FALSE(bool(applyChange(Doc, {{"text", "whole"}}, PositionEncoding::Utf16)));
  EXPECT_EQ(Doc, "whole");
}

TEST(ApplyChange, AnInvalidChangeIsAnErrorAndChangesNothing) {
  std::string Doc = "int a;\n";
  json Backwards = {{"range", {{"start", pos(0, 4)}, {"end", pos(0, 1)}}},
                    {"text", "x"}};
  llvm::Error Err = applyChange(Doc, Backwards, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));
  Err = applyChange(Doc, {{"range", 3}}, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));
  EXPECT_EQ(Doc, "int a;\n");
}

TEST(Uri, LocalFilesOnlyAndPercentEncoding) {
  EXPECT_EQ(pathFromUri("file:///a/b%20c.cpp"), "/a/b c.cpp");
  EXPECT_EQ(pathFromUri("file://localhost/a.cpp"), "/a.cpp");
  EXPECT_EQ(pathFromUri("file://server/share/a.cpp"), std::nullopt);
  EXPECT_EQ(pathFromUri("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(pathFromUri("file:///a/100%.cpp"), "/a/100%.cpp");
  std::string Odd = "/src/\xC3\xA9t\xC3\xA9 #1.cpp";
  EXPECT_EQ(uriFromPath(Odd), "file:///src/%C3%A9t%C3%A9%20%231.cpp");
  EXPECT_EQ(pathFromUri(uriFromPath(Odd)), Odd);
}

TEST(ChooseEncoding, UTF8WhenOfferedElseUTF16) {
  EXPECT_EQ(chooseEncoding(json::object()), PositionEncoding::Utf16);
  EXPECT_EQ(chooseEncoding({{"general", {{"positionEncodings", {"utf-16"}}}}}),
            PositionEncoding::Utf16);
  EXPECT_EQ(chooseEncoding(
                {{"general", {{"positionEncodings", {"utf-32", "utf-8"}}}}}),
            PositionEncoding::Utf8);
  EXPECT_EQ(chooseEncoding({{"offsetEncoding", {"utf-8", "utf-16"}}}),
            PositionEncoding::Utf8);
}

/// \p Input as a stream, read with a Transport.
struct Framed {
  explicit Framed(const std::string &Input)
      : In(std::tmpfile()), Out(std::tmpfile()), Channel(In, Out) {
    std::fwrite(Input.data(), 1, Input.size(), In);
    std::rewind(In);
  }
  ~Framed() {
    std::fclose(In);
    std::fclose(Out);
  }
  std::string written() {
    std::rewind(Out);
    std::string Text;
    for (int C; (C = std::fgetc(Out)) != EOF;)
      Text.push_back(static_cast<char>(C));
    return Text;
  }
  std::FILE *In, *Out;
  Transport Channel;
};

TEST(Transport, ReadsFramedMessagesAndSkipsOtherHeaders) {
  Framed F("Content-Length: 2\r\n\r\n{}"
           "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
           "content-length:  4\r\n\r\n[1,]");
  std::string Body, Problem;
  ASSERT_EQ(F.Channel.read(Body, Problem), Transport::Read::Message);
  EXPECT_EQ(Body, "{}");
  ASSERT_EQ(F.Channel.read(Body, Problem), Transport::Read::Message);
  EXPECT_EQ(Body, "[1,]");
  EXPECT_EQ(F.Channel.read(Body, Problem), Transport::Read::End);
}

TEST(Transport, ABadHeaderIsMalformedAndTheNextMessageIsRead) {
  Framed F("Content-Length: lots\r\n\r\nContent-Length: 2\r\n\r\n{}");
  std::string Body, Problem;
  ASSERT_EQ(F.Channel.read(Body, Problem), Transport::Read::Malformed);
  EXPECT_NE(Problem.find("lots"), std::string::npos) << Problem;
  ASSERT_EQ(F.Channel.read(Body, Problem), Transport::Read::Message);
  EXPECT_EQ(Body, "{}");
}

TEST(Transport, ATruncatedBodyEndsTheInput) {
  Framed F("Content-Length: 10\r\n\r\n{\"a\"");
  std::string Body, Problem;
  EXPECT_EQ(F.Channel.read(Body, Problem), Transport::Read::End);
}

TEST(Transport, WritesAFramedMessageWithInvalidUtf8Replaced) {
  Framed F("");
  F.Channel.send({{"message", "caf\xE9"}});
  std::string Body = "{\"message\":\"caf\xEF\xBF\xBD\"}";
  EXPECT_EQ(F.written(),
            "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body);
}

} // namespace
} // namespace torch_tidy::lsp
