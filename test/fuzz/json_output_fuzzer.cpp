//===--- json_output_fuzzer.cpp - writeJson on hostile findings -----------===//
//
// The output must always be valid JSON, and every string must come back: as
// written when it was UTF-8, else with its bad bytes replaced by U+FFFD.
//
//===----------------------------------------------------------------------===//

#include "FindingsFromBytes.h"
#include "Output.h"
#include "llvm/Support/raw_ostream.h"

using namespace torch_tidy;
using namespace torch_tidy::fuzz;
using nlohmann::json;

static void checkString(const json &Object, const char *Key,
                        const std::string &Written) {
  check(Object.contains(Key) && Object[Key].is_string(), "a string field",
        Key);
  check(survivesAsUtf8(Written, Object[Key].get<std::string>()),
        "a string survives the JSON output", Key);
}

static void checkPosition(const json &Object, const Span &S) {
  checkString(Object, "file", S.File);
  check(Object["line"] == S.Line && Object["column"] == S.Column,
        "line and column as located");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  GeneratedFindings Generated = FindingGenerator(In).generate();
  const std::vector<Finding> &Findings = Generated.Findings;

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeJson(OS, Findings);

  json Out = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  check(!Out.is_discarded(), "writeJson writes valid JSON", Text.substr(0, 2000));
  check(Out.is_array() && Out.size() == Findings.size(),
        "one object per finding");
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    const json &Item = Out[I];
    checkPosition(Item, F.Where);
    checkString(Item, "check", F.Check);
    checkString(Item, "message", F.Message);
    check(Item["notes"].size() == F.Notes.size(), "every note");
    for (size_t N = 0; N < F.Notes.size(); ++N) {
      checkPosition(Item["notes"][N], F.Notes[N].Where);
      checkString(Item["notes"][N], "message", F.Notes[N].Message);
    }
    check(Item["fixes"].size() == F.Fixes.size(), "every fix");
    for (size_t E = 0; E < F.Fixes.size(); ++E)
      checkString(Item["fixes"][E], "replacement", F.Fixes[E].Replacement);
    check(Item.contains("verdict") == F.Confirmation.has_value(),
          "a verdict when the probe judged");
    if (F.Confirmation) {
      checkString(Item["verdict"], "verdict", F.Confirmation->Outcome);
      // The verdict schema leaves empty fields out.
      if (!F.Confirmation->Device.empty())
        checkString(Item["verdict"], "device", F.Confirmation->Device);
      if (!F.Confirmation->Message.empty())
        checkString(Item["verdict"], "message", F.Confirmation->Message);
    }
  }
  return 0;
}
