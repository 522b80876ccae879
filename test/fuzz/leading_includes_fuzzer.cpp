//===--- leading_includes_fuzzer.cpp - The headers a file starts with -----===//
//
// Any text as a source file, and as the project header "h.h" beside it (the
// input split at its first NUL byte), through the scanner the driver uses to
// choose the precompiled headers that files share. Every include it lists is
// a header name as written, listed once.
//
//===----------------------------------------------------------------------===//

#include "LeadingIncludes.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Input(reinterpret_cast<const char *>(Data), Size);
  size_t Split = Input.find('\0');
  std::map<std::string, std::string> Files = {
      {"/p/a.cpp", Input.substr(0, Split)},
      {"/p/h.h", Split == std::string::npos ? "" : Input.substr(Split + 1)}};
  auto Read = [&](const std::string &Path) -> std::optional<std::string> {
    auto It = Files.find(Path);
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
  std::vector<std::string> Found =
      torch_tidy::leadingIncludes("/p/a.cpp", {"/p/include"}, Read);
  for (size_t I = 0; I < Found.size(); ++I) {
    const std::string &Name = Found[I];
    bool Angled = Name.size() > 2 && Name.front() == '<' && Name.back() == '>';
    bool Quoted = Name.size() > 2 && Name.front() == '"' && Name.back() == '"';
    if ((!Angled && !Quoted) || llvm::is_contained(llvm::ArrayRef(Found).take_front(I), Name)) {
      std::fprintf(stderr, "leading_includes_fuzzer: bad entry '%s'\n", Name.c_str());
      std::abort();
    }
  }
  return 0;
}
