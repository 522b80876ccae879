//===--- verdicts_fuzzer.cpp - Merging a verdicts file into findings ------===//
//
// Findings with and without replay plans, named as the driver names them and
// written out as --emit-plans does (each must come back from its file), then
// mergeVerdicts on a fuzzed verdicts file. The input is a line describing the
// findings (findingsFrom), then the verdicts file, in which "@0@" to "@3@"
// stand for the ids of the findings' plans, so that the fuzzer reaches the
// merge itself. A bad file is an error of one line that leaves the findings
// alone; nothing throws.
//
//===----------------------------------------------------------------------===//

#include "Confirmation.h"
#include "FuzzSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <set>

using namespace torch_tidy;
using namespace torch_tidy::fuzz;
using nlohmann::json;

static std::string planId(const Finding &F) {
  return F.Plan->at("id").get<std::string>();
}

/// The id of each plan written into \p Dir.
static std::set<std::string> idsIn(const std::string &Dir) {
  std::set<std::string> Ids;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    auto Buffer = llvm::MemoryBuffer::getFile(It->path());
    check(bool(Buffer), "a plan file can be read", It->path());
    json Plan = json::parse((*Buffer)->getBuffer(), nullptr, false);
    check(!Plan.is_discarded(), "a plan file is JSON", It->path());
    Ids.insert(Plan.at("id").get<std::string>());
  }
  return Ids;
}

static void checkWritePlans(const std::vector<Finding> &Findings) {
  std::string Dir = scratchPath("plans");
  llvm::sys::fs::remove_directories(Dir);
  llvm::Error Err = writePlans(Findings, Dir);
  check(!Err, "the plans are written", llvm::toString(std::move(Err)));
  std::set<std::string> Written = idsIn(Dir);
  for (const Finding &F : Findings)
    if (F.Plan)
      check(Written.count(planId(F)), "every plan has its file", planId(F));
}

static std::string substituteIds(std::string Text,
                                 const std::vector<Finding> &Findings) {
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (!Findings[I].Plan)
      continue;
    std::string Placeholder = "@" + std::to_string(I) + "@";
    // The id as a JSON string's contents, quotes dropped.
    std::string Id = json(planId(Findings[I])).dump();
    Id = Id.substr(1, Id.size() - 2);
    for (size_t At = Text.find(Placeholder); At != Text.npos;
         At = Text.find(Placeholder, At + Id.size()))
      Text.replace(At, Placeholder.size(), Id);
  }
  return Text;
}

/// The findings a spec line describes: 'S' first for --confirm-strict, then
/// one byte per finding (at most 4). Its bits choose the check (1: a rule's,
/// 8: another rule), a plan (2), a file name of 300 bytes (4) and a folder
/// (16); the file is named after the byte itself, whatever it is.
static std::vector<Finding> findingsFrom(std::string_view Spec,
                                         const std::string &Root) {
  std::vector<Finding> Findings;
  for (size_t I = 1; I < Spec.size() && I <= 4; ++I) {
    unsigned char C = Spec[I];
    char NameByte = C == '/' || C == '\0' ? '_' : static_cast<char>(C);
    Finding F;
    F.Check = !(C & 1)  ? "clang-diagnostic-error"
              : (C & 8) ? "device-hardcoded"
                        : "device-mismatch";
    F.Where.File = Root + (C & 16 ? "/sub dir/" : "/") +
                   std::string(C & 4 ? 300 : 1, NameByte) + ".cpp";
    F.Where.Line = I;
    F.Where.Column = C;
    F.IsError = C & 32;
    if (C & 2)
      F.Plan = json{{"format", "torch-tidy-plan"}, {"version", 1}};
    Findings.push_back(std::move(F));
  }
  return Findings;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Input(reinterpret_cast<const char *>(Data), Size);
  size_t Newline = std::min(Input.find('\n'), Input.size());
  std::string_view Spec = Input.substr(0, Newline);
  bool Strict = !Spec.empty() && Spec[0] == 'S';
  std::string Root = scratchPath("src");
  std::vector<Finding> Findings = findingsFrom(Spec, Root);
  namePlans(Findings, Root);
  checkWritePlans(Findings);
  const std::vector<Finding> Before = Findings;

  static const std::string File = scratchPath("verdicts.json");
  writeFile(File, substituteIds(std::string(Input.substr(
                                    std::min(Newline + 1, Input.size()))),
                                Findings));

  if (llvm::Error Err = mergeVerdicts(Findings, File, Strict)) {
    std::string Message = llvm::toString(std::move(Err));
    check(Message.find('\n') == Message.npos, "an error is one line", Message);
    check(Findings.size() == Before.size(), "a bad file changes nothing");
    for (size_t I = 0; I < Findings.size(); ++I)
      check(!Findings[I].Confirmation && !Findings[I].Downgraded,
            "a bad file changes nothing");
    return 0;
  }
  check(Findings.size() <= Before.size(), "merging adds no finding");
  for (const Finding &F : Findings) {
    check(!(Strict && F.Downgraded), "--confirm-strict drops what is downgraded");
    check(!F.Downgraded || !F.IsError, "a downgraded finding is no error");
    check(F.Downgraded == (F.Confirmation &&
                           F.Confirmation->Outcome == "not-reproduced"),
          "downgraded exactly when not reproduced");
    if (!F.Plan && llvm::StringRef(F.Check).starts_with("device-"))
      check(F.Confirmation.has_value(), "a rule's finding without a plan is "
                                        "inconclusive");
  }
  return 0;
}
