//===--- FuzzSupport.h - Scratch files and invariants for the fuzzers ----===//
//
// The fuzzers are thin wrappers over the public functions of tool/ and
// runtime/. Several of those read files, so each fuzzer process gets one
// scratch directory; and a broken invariant aborts, so that libFuzzer keeps
// the input that broke it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TEST_FUZZ_FUZZSUPPORT_H
#define TORCH_TIDY_TEST_FUZZ_FUZZSUPPORT_H

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace torch_tidy::fuzz {

/// A fresh directory for this process, removed at exit.
inline const std::string &scratchDir() {
  static const std::string Dir = [] {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Template =
        std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/torch-tidy-fuzz-XXXXXX";
    if (!mkdtemp(Template.data())) {
      std::perror("torch-tidy fuzzer: cannot create a scratch directory");
      std::abort();
    }
    static std::string Remove = "rm -rf '" + Template + "'";
    std::atexit([] { (void)std::system(Remove.c_str()); });
    return Template;
  }();
  return Dir;
}

/// \p Name in the scratch directory.
inline std::string scratchPath(const std::string &Name) {
  return scratchDir() + "/" + Name;
}

/// Writes \p Contents to \p Path, replacing what was there.
inline void writeFile(const std::string &Path, std::string_view Contents) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out.write(Contents.data(), static_cast<std::streamsize>(Contents.size()));
  if (!Out) {
    std::fprintf(stderr, "torch-tidy fuzzer: cannot write %s\n", Path.c_str());
    std::abort();
  }
}

/// Aborts with \p What when \p Holds is false: libFuzzer saves the input.
inline void check(bool Holds, const char *What,
                  const std::string &Detail = "") {
  if (Holds)
    return;
  std::fprintf(stderr, "invariant broken: %s\n%s\n", What, Detail.c_str());
  std::abort();
}

/// The length of the longest prefix of \p S that is well-formed UTF-8 (no
/// overlong forms, no surrogates, nothing above U+10FFFF).
inline size_t validUtf8Length(std::string_view S) {
  size_t I = 0;
  while (I < S.size()) {
    unsigned char C = S[I];
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3
               : (C >> 3) == 30                ? 4
                                               : 0;
    if (Len == 0 || I + Len > S.size())
      return I;
    unsigned Code = Len == 1 ? C : C & (0x7F >> Len);
    for (size_t K = 1; K < Len; ++K) {
      unsigned char Next = S[I + K];
      if ((Next & 0xC0) != 0x80)
        return I;
      Code = (Code << 6) | (Next & 0x3F);
    }
    static const unsigned Min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (Code < Min[Len] || Code > 0x10FFFF ||
        (Code >= 0xD800 && Code <= 0xDFFF))
      return I;
    I += Len;
  }
  return I;
}

inline bool isValidUtf8(std::string_view S) {
  return validUtf8Length(S) == S.size();
}

/// U+FFFD, what the writers put in place of bytes that are not UTF-8.
inline constexpr std::string_view ReplacementCharacter = "\xEF\xBF\xBD";

/// A string written into JSON and read back: unchanged when it was UTF-8;
/// else its valid prefix survives, followed by at least one U+FFFD.
inline bool survivesAsUtf8(std::string_view Written, std::string_view Read) {
  if (isValidUtf8(Written))
    return Written == Read;
  std::string_view Prefix = Written.substr(0, validUtf8Length(Written));
  return Read.substr(0, Prefix.size()) == Prefix &&
         Read.find(ReplacementCharacter, Prefix.size()) != Read.npos;
}

} // namespace torch_tidy::fuzz

#endif // TORCH_TIDY_TEST_FUZZ_FUZZSUPPORT_H
