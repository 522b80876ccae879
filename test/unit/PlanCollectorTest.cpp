//===--- PlanCollectorTest.cpp - Plans travel from checks to findings -----===//

#include "PlanCollector.h"
#include "TestFiles.h"
#include "clang/Basic/SourceManager.h"
#include <gtest/gtest.h>
#include <thread>

namespace torch_tidy {
namespace {

namespace plans = clang::tidy::torch_tidy::plans;
using test::offsetOf;
using test::spanAt;
using test::TempDir;

const char CollectedSource[] = "void f(torch::Tensor x) { x.to(d); auto y = x * w; }\n";

/// A file on disk and a SourceManager over it, as a check sees it.
class PlanCollectorTest : public ::testing::Test {
protected:
  void SetUp() override {
    File = Dir.write("src/f.cpp", CollectedSource);
    Manager = std::make_unique<clang::SourceManagerForFile>(File, CollectedSource);
  }

  const clang::SourceManager &sourceManager() { return Manager->get(); }

  clang::SourceLocation at(const std::string &Needle) {
    const clang::SourceManager &SM = sourceManager();
    return SM.getLocForStartOfFile(SM.getMainFileID())
        .getLocWithOffset(offsetOf(CollectedSource, Needle));
  }

  Finding finding(const std::string &Check, const std::string &Needle) {
    Finding F;
    F.Check = Check;
    F.Where = spanAt(File, offsetOf(CollectedSource, Needle));
    return F;
  }

  TempDir Dir;
  std::string File;
  std::unique_ptr<clang::SourceManagerForFile> Manager;
};

nlohmann::json aPlan() { return {{"format", "torch-tidy-plan"}}; }

TEST_F(PlanCollectorTest, AttachesEachPlanToItsFinding) {
  std::vector<Finding> Findings = {finding("device-discarded-to", "x.to"),
                                   finding("device-mismatch", "x * w"),
                                   finding("device-mismatch", "w; }")};
  PlanCollector Collector;
  plans::recordPlan("device-discarded-to", at("x.to"), sourceManager(),
                    aPlan());
  plans::recordNotReplayable("device-mismatch", at("x * w"), sourceManager());
  Collector.attachTo(Findings);
  ASSERT_TRUE(Findings[0].Plan);
  EXPECT_EQ(*Findings[0].Plan, aPlan());
  EXPECT_FALSE(Findings[0].OperationNotReplayable);
  EXPECT_FALSE(Findings[1].Plan);
  EXPECT_TRUE(Findings[1].OperationNotReplayable);
  EXPECT_FALSE(Findings[2].Plan);
  EXPECT_FALSE(Findings[2].OperationNotReplayable);
}

TEST_F(PlanCollectorTest, APlanOfAnotherCheckIsNotAttached) {
  std::vector<Finding> Findings = {finding("device-mismatch", "x.to")};
  PlanCollector Collector;
  plans::recordPlan("device-discarded-to", at("x.to"), sourceManager(),
                    aPlan());
  Collector.attachTo(Findings);
  EXPECT_FALSE(Findings[0].Plan);
}

TEST_F(PlanCollectorTest, WithoutARecorderNothingIsRecorded) {
  // The plugin under stock clang-tidy: no driver installs a recorder.
  ASSERT_EQ(plans::setPlanRecorder(nullptr), nullptr);
  plans::recordPlan("device-discarded-to", at("x.to"), sourceManager(),
                    aPlan());
  std::vector<Finding> Findings = {finding("device-discarded-to", "x.to")};
  PlanCollector Later;
  Later.attachTo(Findings);
  EXPECT_FALSE(Findings[0].Plan);
}

TEST_F(PlanCollectorTest, EachCollectorSeesOnlyItsOwnFile) {
  std::vector<Finding> Findings = {finding("device-discarded-to", "x.to")};
  {
    PlanCollector First;
    plans::recordPlan("device-discarded-to", at("x.to"), sourceManager(),
                      aPlan());
  }
  EXPECT_EQ(plans::setPlanRecorder(nullptr), nullptr)
      << "a collector uninstalls itself";
  PlanCollector Second;
  Second.attachTo(Findings);
  EXPECT_FALSE(Findings[0].Plan);
}

TEST_F(PlanCollectorTest, ARecorderIsInstalledForItsThreadOnly) {
  PlanCollector Collector;
  plans::PlanRecorder *OnAnotherThread = &Collector;
  std::thread([&] { OnAnotherThread = plans::setPlanRecorder(nullptr); })
      .join();
  EXPECT_EQ(OnAnotherThread, nullptr);
}

} // namespace
} // namespace torch_tidy
