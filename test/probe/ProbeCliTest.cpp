//===--- ProbeCliTest.cpp - torch-tidy-probe end to end -------------------===//

#include "runtime/Verdict.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

using nlohmann::json;

namespace {

struct ProbeRun {
  int ExitCode;
  std::string Stdout, Stderr;
};

std::string slurp(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

/// A file of this test's own: ctest runs the tests of this file in parallel.
std::string testFile(const std::string &Name) {
  return ::testing::TempDir() + "/" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
         Name;
}

ProbeRun runProbe(const std::string &Args) {
  std::string Out = testFile("probe-stdout.txt");
  std::string Err = testFile("probe-stderr.txt");
  std::string Command = std::string(TORCH_TIDY_PROBE_EXE) + " " + Args + " >" +
                        Out + " 2>" + Err;
  int Status = std::system(Command.c_str());
  return {WIFEXITED(Status) ? WEXITSTATUS(Status) : -1, slurp(Out),
          slurp(Err)};
}

std::string plans(const std::string &Name) {
  return std::string(TORCH_TIDY_PROBE_PLANS) + "/" + Name;
}

std::map<std::string, json> verdictsByFileName(const json &Report) {
  std::map<std::string, json> ByName;
  for (const json &V : Report.at("verdicts")) {
    std::string File = V.at("file");
    ByName[File.substr(File.rfind('/') + 1)] = V;
  }
  return ByName;
}

bool cudaUsable() {
  ProbeRun R = runProbe("--inventory");
  json Inv = json::parse(R.Stdout);
  return Inv.at("libtorch").at("cuda_available").get<bool>();
}

TEST(ProbeCli, InventoryExitsCleanly) {
  ProbeRun R = runProbe("--inventory");
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  json Inv = json::parse(R.Stdout);
  if (!Inv.at("devices").empty()) {
    EXPECT_TRUE(Inv.at("self_test").at("passed").get<bool>())
        << Inv.dump(2);
    GTEST_SKIP() << "a CUDA device is present: " << Inv.at("devices")[0];
  }
  std::string Error = Inv.at("error");
  bool NoDevice = Error.rfind("no CUDA device", 0) == 0 ||
                  Error.rfind("CUDA runtime not built in", 0) == 0;
  EXPECT_TRUE(NoDevice) << Error;
  EXPECT_FALSE(Inv.at("self_test").at("ran").get<bool>());
}

TEST(ProbeCli, ReplaysADirectoryOnTheMetaStandIn) {
  ProbeRun R = runProbe("--backend=meta --jobs=2 " + plans("meta"));
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  json Report = json::parse(R.Stdout);
  EXPECT_EQ(Report.at("format"), "torch-tidy-verdicts");
  EXPECT_EQ(Report.at("version"), 1);
  EXPECT_EQ(Report.at("backend"), "meta");
  EXPECT_EQ(Report.at("device"), "meta (stand-in)");
  EXPECT_TRUE(Report.at("inventory").is_object());
  namespace plan = torch_tidy::plan;
  auto Parsed = plan::parseVerdicts(Report);
  EXPECT_TRUE(std::holds_alternative<plan::VerdictsDocument>(Parsed))
      << std::get<plan::ValidationError>(Parsed).str();
  auto V = verdictsByFileName(Report);
  ASSERT_EQ(V.size(), 6u);
  EXPECT_EQ(V["add-cpu-accel.json"].at("verdict"), "confirmed");
  EXPECT_EQ(V["add-cpu-accel.json"].at("message"),
            "Expected all tensors to be on the same device, but found at "
            "least two devices, meta and cpu!");
  EXPECT_EQ(V["add-cpu-accel.json"].at("step"), 2);
  EXPECT_EQ(V["add-cpu-accel.json"].at("id"),
            "train.cpp:12:3:device-mixed-operands");
  EXPECT_EQ(V["accumulate-loss.json"].at("verdict"), "confirmed");
  EXPECT_EQ(V["scalar-0dim.json"].at("verdict"), "not-reproduced");
  EXPECT_EQ(V["cross-entropy-target.json"].at("verdict"), "inconclusive");
  EXPECT_EQ(V["discarded-to.json"].at("verdict"), "confirmed");
  // Meta measures no device work: the cost of a sync needs a GPU.
  EXPECT_EQ(V["sync-in-loop.json"].at("verdict"), "inconclusive");
  EXPECT_FALSE(V["sync-in-loop.json"].contains("micros"));
  EXPECT_EQ(Report.at("summary"),
            json({{"plans", 6}, {"confirmed", 3}, {"not-reproduced", 1},
                  {"inconclusive", 2}, {"invalid", 0}}));
  EXPECT_NE(R.Stderr.find("6 plans: 3 confirmed, 1 not-reproduced, 2 "
                          "inconclusive, 0 invalid on meta (stand-in)"),
            std::string::npos)
      << R.Stderr;
}

TEST(ProbeCli, AHungPlanIsKilledAndTheRestContinue) {
  std::string Output = testFile("isolation-verdicts.json");
  // The limit leaves a plan that does finish room to load LibTorch in its
  // worker on a machine as loaded as CI's under a sanitizer (seconds there);
  // the hung plan costs the test this long.
  ProbeRun R = runProbe("--backend=meta --timeout=30 --output=" + Output + " " +
                   plans("isolation"));
  EXPECT_EQ(R.ExitCode, 2) << "an invalid plan makes the exit code 2";
  json Report = json::parse(slurp(Output));
  auto V = verdictsByFileName(Report);
  EXPECT_EQ(V["a-add.json"].at("verdict"), "confirmed");
  EXPECT_EQ(V["b-hang.json"].at("verdict"), "inconclusive");
  EXPECT_EQ(V["b-hang.json"].at("reason"),
            "replay exceeded the 30 s time limit and was killed");
  EXPECT_EQ(V["c-invalid.json"].at("verdict"), "invalid");
  EXPECT_EQ(V["c-invalid.json"].at("reason"),
            "/steps/1/args/1: 'z' is not defined by an earlier step");
  EXPECT_NE(R.Stderr.find("c-invalid.json: /steps/1/args/1: 'z' is not "
                          "defined by an earlier step\n"),
            std::string::npos)
      << R.Stderr;
}

TEST(ProbeCli, MalformedJsonIsAnInvalidVerdict) {
  std::string Path = testFile("malformed-plan.json");
  std::ofstream(Path) << "{ not json";
  ProbeRun R = runProbe("--backend=meta " + Path);
  EXPECT_EQ(R.ExitCode, 2);
  json Report = json::parse(R.Stdout);
  EXPECT_EQ(Report.at("verdicts")[0].at("verdict"), "invalid");
  EXPECT_EQ(Report.at("verdicts")[0].at("reason").get<std::string>().rfind(
                "malformed JSON: ", 0),
            0u);
}

TEST(ProbeCli, BadCommandLinesFailWithOneLine) {
  ProbeRun Missing = runProbe(plans("no-such-dir"));
  EXPECT_EQ(Missing.ExitCode, 1);
  EXPECT_EQ(Missing.Stderr.rfind("torch-tidy-probe: error: " +
                                     plans("no-such-dir") +
                                     ": no such file or directory\n",
                                 0),
            0u)
      << Missing.Stderr;
  EXPECT_TRUE(Missing.Stdout.empty());
  EXPECT_EQ(runProbe("--backend=tpu " + plans("meta")).ExitCode, 1);
  EXPECT_EQ(runProbe("--frobnicate " + plans("meta")).ExitCode, 1);
  EXPECT_EQ(runProbe("").ExitCode, 1);
}

TEST(ProbeCli, CudaBackendWithoutCudaExitsWith3) {
  if (cudaUsable())
    GTEST_SKIP() << "a CUDA device is present";
  ProbeRun R = runProbe("--backend=cuda " + plans("meta"));
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_NE(R.Stderr.find("--backend=cuda but LibTorch sees no CUDA device"),
            std::string::npos)
      << R.Stderr;
}

TEST(ProbeCli, GpuConfirmsWhatMetaCannot) {
  if (!cudaUsable())
    GTEST_SKIP() << "no CUDA device";
  ProbeRun R = runProbe("--backend=cuda " + plans("meta"));
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  auto V = verdictsByFileName(json::parse(R.Stdout));
  EXPECT_EQ(V["cross-entropy-target.json"].at("verdict"), "confirmed");
  EXPECT_EQ(V["add-cpu-accel.json"].at("verdict"), "confirmed");
  EXPECT_EQ(V["scalar-0dim.json"].at("verdict"), "not-reproduced");
  EXPECT_EQ(V["discarded-to.json"].at("verdict"), "confirmed");
  // The sync is timed on the GPU: decided, with its cost per iteration.
  EXPECT_NE(V["sync-in-loop.json"].at("verdict"), "inconclusive");
  EXPECT_TRUE(V["sync-in-loop.json"].contains("micros"));
}

} // namespace
