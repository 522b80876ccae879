//===--- FindingsFromBytes.h - Findings built from a fuzzer's input -------===//
//
// Findings as the driver builds them (spans located by SourceIndex in files
// that exist), but with hostile strings: invalid UTF-8, control characters,
// huge lines, and file names made of any bytes but '/' and NUL. A finding
// may also have no file at all, as a compiler error about the command line
// does.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TEST_FUZZ_FINDINGSFROMBYTES_H
#define TORCH_TIDY_TEST_FUZZ_FINDINGSFROMBYTES_H

#include "Finding.h"
#include "FuzzSupport.h"
#include "llvm/Support/FileSystem.h"
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <vector>

namespace torch_tidy::fuzz {

struct GeneratedFindings {
  std::string SourceRoot;
  std::vector<Finding> Findings;
};

/// A string of any bytes; now and then one repeated into a line of up to
/// 256 KiB (rarely: huge strings slow every run down).
inline std::string hostileString(FuzzedDataProvider &In) {
  std::string S = In.ConsumeRandomLengthString(256);
  if (In.ConsumeIntegralInRange<int>(0, 63) == 0 && !S.empty()) {
    size_t Copies = In.ConsumeIntegralInRange<size_t>(1, (1u << 18) / S.size());
    std::string Huge;
    Huge.reserve(S.size() * Copies);
    for (size_t I = 0; I < Copies; ++I)
      Huge += S;
    S = std::move(Huge);
  }
  return S;
}

/// A file name: any bytes but '/' and NUL, never "." or "..".
inline std::string hostileFileName(FuzzedDataProvider &In) {
  std::string Name;
  for (char C : In.ConsumeRandomLengthString(64))
    if (C != '/' && C != '\0')
      Name += C;
  if (Name.empty() || Name == "." || Name == "..")
    Name = "f" + Name;
  return Name;
}

class FindingGenerator {
public:
  explicit FindingGenerator(FuzzedDataProvider &In) : In(In) {}

  GeneratedFindings generate() {
    GeneratedFindings Out;
    // Each input starts from an empty tree: file names repeat across runs.
    std::string Root = scratchPath("src");
    llvm::sys::fs::remove_directories(Root);
    llvm::sys::fs::create_directories(Root + "/sub");
    Out.SourceRoot = In.ConsumeBool() ? Root : Root + "/";
    unsigned FileCount = In.ConsumeIntegralInRange<unsigned>(1, 3);
    for (unsigned I = 0; I < FileCount; ++I) {
      static const char *const Dirs[] = {"/", "/sub/", "/../"};
      std::string Path =
          Root + Dirs[In.ConsumeIntegralInRange<int>(0, 2)] + hostileFileName(In);
      std::string Text = hostileString(In);
      writeFile(Path, Text);
      Files.push_back({Path, Text.size()});
    }
    Files.push_back({Root + "/missing \x7f\xff.cpp", 0}); // not on disk
    Files.push_back({"", 0}); // no file: last, see file()

    unsigned Count = In.ConsumeIntegralInRange<unsigned>(0, 4);
    for (unsigned I = 0; I < Count && In.remaining_bytes(); ++I)
      Out.Findings.push_back(finding());
    return Out;
  }

private:
  struct File {
    std::string Path;
    size_t Size;
  };

  /// One of the files; with \p MayBeNone also the empty name of a finding
  /// that has no location.
  const File &file(bool MayBeNone = false) {
    size_t Last = Files.size() - (MayBeNone ? 1 : 2);
    return Files[In.ConsumeIntegralInRange<size_t>(0, Last)];
  }

  /// A range of \p F, as clang reports one: inside the file.
  Span span(const File &F) {
    Span S;
    S.File = F.Path;
    S.Offset = In.ConsumeIntegralInRange<unsigned>(0, F.Size);
    S.Length = In.ConsumeIntegralInRange<unsigned>(0, F.Size - S.Offset);
    Index.locate(S);
    return S;
  }

  std::vector<Edit> edits() {
    std::vector<Edit> Edits;
    for (unsigned I = In.ConsumeIntegralInRange<unsigned>(0, 2); I; --I)
      Edits.push_back({span(file()), hostileString(In)});
    return Edits;
  }

  std::string check() {
    static const char *const Known[] = {
        "device-mismatch", "device-discarded-to", "clang-diagnostic-error",
        "device-factory-without-device"};
    if (In.ConsumeBool())
      return Known[In.ConsumeIntegralInRange<int>(0, 3)];
    return hostileString(In);
  }

  Finding finding() {
    Finding F;
    F.Check = check();
    F.Message = hostileString(In);
    F.IsError = In.ConsumeBool();
    F.IsWarningAsError = F.IsError && In.ConsumeBool();
    const File &Where = file(/*MayBeNone=*/true);
    F.Where = span(Where);
    F.Where.Length = 0; // a diagnostic points at one place
    Index.locate(F.Where);
    for (unsigned I = In.ConsumeIntegralInRange<unsigned>(0, 2); I; --I)
      if (!Where.Path.empty())
        F.Ranges.push_back(span(Where)); // sometimes starting at F.Where
    for (unsigned I = In.ConsumeIntegralInRange<unsigned>(0, 2); I; --I)
      F.Notes.push_back(
          {span(file(/*MayBeNone=*/true)), hostileString(In), edits()});
    F.Fixes = edits();
    if (In.ConsumeBool()) {
      plan::Verdict V;
      V.Outcome = hostileString(In);
      V.Device = hostileString(In);
      V.Message = hostileString(In);
      F.Confirmation = V;
    }
    F.Downgraded = In.ConsumeBool();
    return F;
  }

  FuzzedDataProvider &In;
  SourceIndex Index;
  std::vector<File> Files;
};

} // namespace torch_tidy::fuzz

#endif // TORCH_TIDY_TEST_FUZZ_FINDINGSFROMBYTES_H
