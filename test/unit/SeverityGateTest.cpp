//===--- SeverityGateTest.cpp - --fail-on and the count per severity ------===//

#include "SeverityGate.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

Finding of(const char *Check) {
  Finding F;
  F.Check = Check;
  return F;
}

/// A bug, a hazard, two performance findings, a bug the probe did not
/// reproduce and a compiler warning.
std::vector<Finding> mixed() {
  Finding NotReproduced = of("device-mismatch");
  NotReproduced.Downgraded = true;
  return {of("training-missing-zero-grad"), of("device-hardcoded"),
          of("device-sync-in-loop"),        of("device-loop-invariant-to"),
          NotReproduced,                    of("clang-diagnostic-unused")};
}

std::string failingLine(const SeverityGate &Gate,
                        const std::vector<Finding> &Findings) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Gate.printFailing(Findings, OS);
  return Text;
}

TEST(SeverityGateTest, FailsOnTheNamedSeveritiesOnly) {
  auto Gate = SeverityGate::parse("bug, hazard");
  ASSERT_TRUE(bool(Gate)) << llvm::toString(Gate.takeError());
  EXPECT_EQ(Gate->failing(mixed()), 2u) << "not the note, nor the compiler's";
  auto Performance = SeverityGate::parse("performance");
  ASSERT_TRUE(bool(Performance));
  EXPECT_EQ(Performance->failing(mixed()), 2u);
}

TEST(SeverityGateTest, NoneByDefault) {
  auto Gate = SeverityGate::parse("");
  ASSERT_TRUE(bool(Gate));
  EXPECT_EQ(Gate->failing(mixed()), 0u);
}

TEST(SeverityGateTest, AnUnknownSeverityNamesTheValidOnes) {
  auto Gate = SeverityGate::parse("bug,warning");
  ASSERT_FALSE(bool(Gate));
  std::string Message = llvm::toString(Gate.takeError());
  EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  EXPECT_NE(Message.find("'warning'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("bug, hazard and performance"), std::string::npos)
      << Message;
}

TEST(SeverityGateTest, CountsEachSeverity) {
  EXPECT_EQ(SeverityGate::countsBySeverity(mixed()),
            "1 bug, 1 hazard, 2 performance");
  EXPECT_EQ(SeverityGate::countsBySeverity({of("clang-diagnostic-unused")}),
            "");
}

TEST(SeverityGateTest, SaysHowManyFindingsFailTheGate) {
  auto Gate = SeverityGate::parse("bug,bug");
  ASSERT_TRUE(bool(Gate));
  EXPECT_EQ(failingLine(*Gate, mixed()),
            "torch-tidy: 1 finding treated as error (--fail-on=bug)\n");
  EXPECT_EQ(failingLine(*Gate, {of("device-sync-in-loop")}), "");
}

} // namespace
} // namespace torch_tidy
