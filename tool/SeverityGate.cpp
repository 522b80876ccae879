//===--- SeverityGate.cpp - The severities that fail a run ----------------===//

#include "SeverityGate.h"
#include "Gate.h"
#include "Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

namespace torch_tidy {

using clang::tidy::torch_tidy::AllSeverities;
using clang::tidy::torch_tidy::parseSeverity;
using clang::tidy::torch_tidy::Severity;
using clang::tidy::torch_tidy::severityName;
using clang::tidy::torch_tidy::severityOf;

static llvm::cl::opt<std::string>
    FailOnOption("fail-on", llvm::cl::desc(R"(
Exit with status 1 when a finding of these severities is counted
(comma-separated: bug, hazard, performance), as --warnings-as-errors does
for checks. Default: none.)"),
                 llvm::cl::value_desc("severities"),
                 llvm::cl::cat(gateCategory()));

llvm::Expected<SeverityGate> SeverityGate::fromOptions() {
  return parse(FailOnOption);
}

llvm::Expected<SeverityGate> SeverityGate::parse(llvm::StringRef Severities) {
  SeverityGate Gate;
  llvm::SmallVector<llvm::StringRef, 3> Names;
  Severities.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Name : Names) {
    auto Parsed = parseSeverity(Name.trim());
    if (!Parsed)
      return llvm::createStringError(
          std::errc::invalid_argument,
          "--fail-on takes severities among bug, hazard and performance, "
          "comma-separated, not '%s'",
          Name.trim().str().c_str());
    if (!llvm::is_contained(Gate.FailOn, *Parsed))
      Gate.FailOn.push_back(*Parsed);
  }
  return Gate;
}

unsigned SeverityGate::failing(const std::vector<Finding> &Findings) const {
  return llvm::count_if(Findings, [&](const Finding &F) {
    auto Level = severityOf(F.Check);
    return !F.Downgraded && Level && llvm::is_contained(FailOn, *Level);
  });
}

std::string SeverityGate::countsBySeverity(const std::vector<Finding> &Findings) {
  std::vector<std::string> Parts;
  for (Severity S : AllSeverities) {
    unsigned N = llvm::count_if(Findings, [&](const Finding &F) {
      return !F.Downgraded && severityOf(F.Check) == S;
    });
    // "performance" is uncountable: "2 performance".
    if (N)
      Parts.push_back(S == Severity::Performance
                          ? std::to_string(N) + " performance"
                          : plural(N, severityName(S)));
  }
  return llvm::join(Parts, ", ");
}

void SeverityGate::printFailing(const std::vector<Finding> &Findings,
                                llvm::raw_ostream &OS) const {
  unsigned Failing = failing(Findings);
  if (!Failing)
    return;
  std::vector<std::string> Names;
  for (Severity S : FailOn)
    Names.push_back(severityName(S).str());
  OS << "torch-tidy: " << plural(Failing, "finding") << " treated as error"
     << (Failing == 1 ? "" : "s") << " (--fail-on=" << llvm::join(Names, ",")
     << ")\n";
}

} // namespace torch_tidy
