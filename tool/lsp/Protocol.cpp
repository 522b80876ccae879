//===--- Protocol.cpp - LSP's positions, URIs and error codes -------------===//

#include "Protocol.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace torch_tidy::lsp {

llvm::StringRef encodingName(PositionEncoding Encoding) {
  switch (Encoding) {
  case PositionEncoding::Utf8:
    return "utf-8";
  case PositionEncoding::Utf16:
    return "utf-16";
  case PositionEncoding::Utf32:
    return "utf-32";
  }
  llvm_unreachable("an encoding");
}

PositionEncoding chooseEncoding(const nlohmann::json &ClientCapabilities) {
  auto Offers = [&](const nlohmann::json &List) {
    if (!List.is_array())
      return false;
    return std::any_of(List.begin(), List.end(), [](const nlohmann::json &E) {
      return E.is_string() && E.get<std::string>() == "utf-8";
    });
  };
  const nlohmann::json *General = nullptr;
  if (ClientCapabilities.is_object() && ClientCapabilities.contains("general"))
    General = &ClientCapabilities["general"];
  if (General && General->is_object() &&
      Offers(General->value("positionEncodings", nlohmann::json())))
    return PositionEncoding::Utf8;
  if (ClientCapabilities.is_object() &&
      Offers(ClientCapabilities.value("offsetEncoding", nlohmann::json())))
    return PositionEncoding::Utf8;
  return PositionEncoding::Utf16;
}

/// The length in bytes of the UTF-8 sequence that starts with \p Lead; 1 for
/// a byte that starts none, so that any bytes can be walked.
static unsigned sequenceLength(unsigned char Lead) {
  if (Lead < 0xC0)
    return 1;
  if (Lead < 0xE0)
    return 2;
  if (Lead < 0xF0)
    return 3;
  if (Lead < 0xF8)
    return 4;
  return 1;
}

/// How many code units of \p Encoding the character of \p Bytes bytes takes.
static unsigned codeUnits(unsigned Bytes, PositionEncoding Encoding) {
  switch (Encoding) {
  case PositionEncoding::Utf8:
    return Bytes;
  case PositionEncoding::Utf16:
    return Bytes == 4 ? 2 : 1;
  case PositionEncoding::Utf32:
    return 1;
  }
  llvm_unreachable("an encoding");
}

LineTable::LineTable(llvm::StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

unsigned LineTable::lineOf(unsigned Offset) const {
  auto Next = std::upper_bound(Starts.begin(), Starts.end(), Offset);
  return std::distance(Starts.begin(), Next) - 1;
}

llvm::StringRef LineTable::line(unsigned Line) const {
  if (Line >= Starts.size())
    return "";
  unsigned End = Line + 1 < Starts.size() ? Starts[Line + 1] - 1 : Text.size();
  llvm::StringRef Content = Text.slice(Starts[Line], End);
  return Content.ends_with("\r") ? Content.drop_back() : Content;
}

nlohmann::json LineTable::position(unsigned Offset,
                                   PositionEncoding Encoding) const {
  Offset = std::min<unsigned>(Offset, Text.size());
  unsigned Line = lineOf(Offset);
  unsigned Character = 0;
  for (unsigned I = Starts[Line]; I < Offset;) {
    unsigned Bytes = std::min<unsigned>(sequenceLength(Text[I]), Offset - I);
    Character += codeUnits(Bytes, Encoding);
    I += Bytes;
  }
  return {{"line", Line}, {"character", Character}};
}

nlohmann::json LineTable::range(unsigned Offset, unsigned Length,
                                PositionEncoding Encoding) const {
  return {{"start", position(Offset, Encoding)},
          {"end", position(Offset + Length, Encoding)}};
}

std::optional<unsigned> LineTable::offset(const nlohmann::json &Position,
                                          PositionEncoding Encoding) const {
  if (!Position.is_object())
    return std::nullopt;
  auto Line = Position.find("line");
  auto Character = Position.find("character");
  if (Line == Position.end() || Character == Position.end() ||
      !Line->is_number_unsigned() || !Character->is_number_unsigned())
    return std::nullopt;
  uint64_t LineNumber = Line->get<uint64_t>();
  if (LineNumber >= Starts.size())
    return Text.size();
  llvm::StringRef Content = line(LineNumber);
  uint64_t Wanted = Character->get<uint64_t>();
  unsigned I = 0;
  for (uint64_t Units = 0; I < Content.size();) {
    unsigned Bytes = std::min<unsigned>(sequenceLength(Content[I]),
                                        Content.size() - I);
    Units += codeUnits(Bytes, Encoding);
    if (Units > Wanted)
      break;
    I += Bytes;
  }
  return Starts[LineNumber] + I;
}

llvm::Error applyChange(std::string &Text, const nlohmann::json &Change,
                        PositionEncoding Encoding) {
  if (!Change.is_object() || !Change.contains("text") ||
      !Change["text"].is_string())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "a content change without text");
  const std::string &NewText = Change["text"].get_ref<const std::string &>();
  if (!Change.contains("range")) {
    Text = NewText;
    return llvm::Error::success();
  }
  const nlohmann::json &Range = Change["range"];
  LineTable Lines(Text);
  std::optional<unsigned> Start, End;
  if (Range.is_object()) {
    Start = Lines.offset(Range.value("start", nlohmann::json()), Encoding);
    End = Lines.offset(Range.value("end", nlohmann::json()), Encoding);
  }
  if (!Start || !End || *End < *Start)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "a content change with an invalid range");
  Text.replace(*Start, *End - *Start, NewText);
  return llvm::Error::success();
}

std::optional<std::string> pathFromUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  // An authority ("file://host/path") names another machine: only local
  // files (an empty authority or "localhost") are ours.
  if (!Uri.starts_with("/")) {
    if (!Uri.consume_front("localhost"))
      return std::nullopt;
  }
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte;
    if (Uri[I] == '%' && I + 2 < Uri.size() &&
        !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Path.push_back(static_cast<char>(Byte));
      I += 2;
    } else {
      Path.push_back(Uri[I]);
    }
  }
  if (!llvm::sys::path::is_absolute(Path))
    return std::nullopt;
  return Path;
}

std::string uriFromPath(llvm::StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      Uri.push_back(C);
    else
      Uri += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Uri;
}

} // namespace torch_tidy::lsp
