//===--- plan_fuzzer.cpp - Reading and validating replay plans ------------===//
//
// loadPlanFile either returns a plan that validate() accepts or throws a
// PlanError with one line ("<file>: <problem>"); nothing else escapes. A
// rejected plan's error names a JSON pointer into the plan and is one line.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "runtime/Plan.h"

using namespace torch_tidy::fuzz;
namespace plan = torch_tidy::plan;
using nlohmann::json;

static bool oneLine(const std::string &S) {
  return S.find('\n') == S.npos && S.find('\r') == S.npos;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  static const std::string File = scratchPath("plan.json");
  writeFile(File, Text);

  bool Loaded = false;
  try {
    json Plan = plan::loadPlanFile(File);
    check(!plan::validate(Plan), "a loaded plan is valid");
    Loaded = true;
  } catch (const plan::PlanError &E) {
    std::string Message = E.what();
    check(Message.rfind(File + ": ", 0) == 0, "the error names the file",
          Message);
    check(oneLine(Message), "a plan error is one line", Message);
  }

  json Plan = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Plan.is_discarded())
    return 0;
  std::optional<plan::ValidationError> Error = plan::validate(Plan);
  check(Loaded == !Error, "loadPlanFile and validate agree");
  if (!Error)
    return 0;
  check(oneLine(Error->str()), "a validation error is one line", Error->str());
  bool Resolves = false;
  try {
    Resolves = Plan.contains(json::json_pointer(Error->Path));
  } catch (const json::exception &) {
  }
  check(Resolves, "the error's path is a JSON pointer into the plan",
        Error->Path);
  return 0;
}
