//===--- Fingerprint.cpp - GitHub code scanning's line hash ---------------===//

#include "Fingerprint.h"
#include "llvm/ADT/StringExtras.h"
#include <array>
#include <map>

namespace torch_tidy {

std::u16string decodeUtf8(llvm::StringRef Bytes) {
  std::u16string Out;
  Out.reserve(Bytes.size());
  auto Emit = [&](uint32_t CodePoint) {
    if (CodePoint < 0x10000) {
      Out.push_back(static_cast<char16_t>(CodePoint));
      return;
    }
    CodePoint -= 0x10000;
    Out.push_back(static_cast<char16_t>(0xD800 + (CodePoint >> 10)));
    Out.push_back(static_cast<char16_t>(0xDC00 + (CodePoint & 0x3FF)));
  };
  uint32_t CodePoint = 0;
  unsigned Needed = 0, Seen = 0;
  uint8_t Lower = 0x80, Upper = 0xBF;
  for (size_t I = 0; I < Bytes.size(); ++I) {
    uint8_t Byte = Bytes[I];
    if (Needed == 0) {
      if (Byte <= 0x7F) {
        Emit(Byte);
      } else if (Byte >= 0xC2 && Byte <= 0xDF) {
        Needed = 1;
        CodePoint = Byte & 0x1F;
      } else if (Byte >= 0xE0 && Byte <= 0xEF) {
        Lower = Byte == 0xE0 ? 0xA0 : 0x80;
        Upper = Byte == 0xED ? 0x9F : 0xBF;
        Needed = 2;
        CodePoint = Byte & 0xF;
      } else if (Byte >= 0xF0 && Byte <= 0xF4) {
        Lower = Byte == 0xF0 ? 0x90 : 0x80;
        Upper = Byte == 0xF4 ? 0x8F : 0xBF;
        Needed = 3;
        CodePoint = Byte & 0x7;
      } else {
        Emit(0xFFFD);
      }
      continue;
    }
    if (Byte < Lower || Byte > Upper) {
      // The sequence so far is one error; the byte starts afresh.
      Needed = Seen = CodePoint = 0;
      Lower = 0x80;
      Upper = 0xBF;
      Emit(0xFFFD);
      --I;
      continue;
    }
    Lower = 0x80;
    Upper = 0xBF;
    CodePoint = (CodePoint << 6) | (Byte & 0x3F);
    if (++Seen == Needed) {
      Emit(CodePoint);
      Needed = Seen = CodePoint = 0;
    }
  }
  if (Needed)
    Emit(0xFFFD);
  return Out;
}

namespace {

constexpr unsigned BlockSize = 100;
constexpr uint64_t Base = 37;
constexpr uint16_t EndOfFile = 65535;

/// The rolling hash over the last BlockSize units read, and for each slot of
/// the window the line that starts there (0 for none).
class RollingHash {
public:
  explicit RollingHash(std::vector<std::string> &Hashes) : Hashes(Hashes) {
    for (unsigned I = 0; I < BlockSize; ++I)
      BaseToTheBlockSize *= Base;
  }

  void read(char16_t Unit) {
    if (Unit == u' ' || Unit == u'\t' || (PreviousWasCR && Unit == u'\n')) {
      PreviousWasCR = false;
      return;
    }
    PreviousWasCR = Unit == u'\r';
    if (PreviousWasCR)
      Unit = u'\n';
    // The unit leaving the window opened a line: its hash is complete.
    if (LineAt[Index])
      emit();
    if (AtLineStart) {
      AtLineStart = false;
      LineAt[Index] = ++Line;
    }
    AtLineStart = Unit == u'\n';
    update(Unit);
  }

  void finish() {
    read(EndOfFile);
    for (unsigned I = 0; I < BlockSize; ++I) {
      if (LineAt[Index])
        emit();
      update(0);
    }
  }

private:
  void update(uint16_t Unit) {
    uint16_t Leaving = Window[Index];
    Window[Index] = Unit;
    Hash = Base * Hash + Unit - BaseToTheBlockSize * Leaving;
    Index = (Index + 1) % BlockSize;
  }

  void emit() {
    std::string Hex = llvm::utohexstr(Hash, /*LowerCase=*/true);
    unsigned Count = ++Counts[Hex];
    if (Hashes.size() < LineAt[Index])
      Hashes.resize(LineAt[Index]);
    Hashes[LineAt[Index] - 1] = Hex + ":" + std::to_string(Count);
    LineAt[Index] = 0;
  }

  std::vector<std::string> &Hashes;
  std::array<uint16_t, BlockSize> Window{};
  std::array<unsigned, BlockSize> LineAt{};
  std::map<std::string, unsigned> Counts;
  uint64_t Hash = 0, BaseToTheBlockSize = 1;
  unsigned Index = 0, Line = 0;
  bool AtLineStart = true, PreviousWasCR = false;
};

} // namespace

LineHashes::LineHashes(llvm::StringRef Contents) {
  RollingHash Rolling(Hashes);
  for (char16_t Unit : decodeUtf8(Contents))
    Rolling.read(Unit);
  Rolling.finish();
}

std::string LineHashes::forLine(unsigned Line) const {
  if (Line == 0 || Line > Hashes.size())
    return "";
  return Hashes[Line - 1];
}

} // namespace torch_tidy
