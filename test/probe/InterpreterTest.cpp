//===--- InterpreterTest.cpp - Replays on the CPU and the meta stand-in ---===//
//
// Plans run in this process with "accel" meaning the meta stand-in, the
// configuration CI has without a GPU (see DESIGN.md, "LibTorch facts").
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter.h"
#include "runtime/Plan.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace torch_tidy::runtime;
using torch_tidy::plan::Verdict;

constexpr const char *kConfirmed = torch_tidy::plan::outcome::Confirmed;
constexpr const char *kNotReproduced =
    torch_tidy::plan::outcome::NotReproduced;
constexpr const char *kInconclusive = torch_tidy::plan::outcome::Inconclusive;

namespace {

constexpr const char *kSameDevice =
    "Expected all tensors to be on the same device";

/// Builds, validates and replays a plan on the meta stand-in.
Verdict replayOnMeta(json Steps, json Expect) {
  json Plan = {{"format", "torch-tidy-plan"}, {"version", 1},
               {"id", "test"},                {"check", "test"},
               {"steps", std::move(Steps)},   {"expect", std::move(Expect)}};
  auto Error = torch_tidy::plan::validate(Plan);
  EXPECT_FALSE(Error) << Error->str();
  return replay(Plan, "meta");
}

json mismatchAt(int Step) {
  return {{"kind", "device-mismatch"}, {"step", Step}};
}

json factory(const char *Id, const char *Fn, json Sizes,
             const char *Device = "cpu") {
  return {{"id", Id}, {"op", "factory"}, {"fn", Fn},
          {"sizes", std::move(Sizes)}, {"device", Device}};
}

json call(const char *Id, const char *Fn, json Args) {
  return {{"id", Id}, {"op", "call"}, {"fn", Fn}, {"args", std::move(Args)}};
}

TEST(Interpreter, ElementwiseCpuAndAccelIsConfirmed) {
  Verdict V = replayOnMeta({factory("x", "randn", {4, 3}, "accel"),
                            factory("b", "zeros", {3}),
                            call("y", "add", {"x", "b"})},
                           mismatchAt(2));
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
  EXPECT_NE(V.Message.find(kSameDevice), std::string::npos) << V.Message;
  EXPECT_EQ(V.Step, 2);
}

TEST(Interpreter, MseLossIsConfirmed) {
  Verdict V = replayOnMeta({factory("out", "randn", {4}, "accel"),
                            factory("tgt", "randn", {4}),
                            call("l", "mse_loss", {"out", "tgt"})},
                           mismatchAt(2));
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
  EXPECT_NE(V.Message.find(kSameDevice), std::string::npos) << V.Message;
}

TEST(Interpreter, InPlaceAccumulationIntoZeroDimCpuIsConfirmed) {
  // acc += loss: the 0-dim exemption covers inputs, not the output.
  Verdict V = replayOnMeta({factory("acc", "zeros", json::array()),
                            factory("loss", "randn", json::array(), "accel"),
                            call("r", "add_", {"acc", "loss"})},
                           mismatchAt(2));
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
}

TEST(Interpreter, ZeroDimCpuScalarIsNotReproduced) {
  Verdict V = replayOnMeta(
      {{{"id", "s"}, {"op", "factory"}, {"fn", "tensor"}, {"data", 0.5}},
       factory("x", "randn", {8}, "accel"), call("y", "mul", {"x", "s"})},
      mismatchAt(2));
  EXPECT_EQ(V.Outcome, kNotReproduced) << V.Reason;
}

TEST(Interpreter, OneElementTensorLiteralIsNotExempt) {
  // torch::tensor({0.5}) is 1-dim, unlike torch::tensor(0.5).
  Verdict V = replayOnMeta(
      {{{"id", "s"}, {"op", "factory"}, {"fn", "tensor"}, {"data", {0.5}}},
       factory("x", "randn", {8}, "accel"), call("y", "mul", {"x", "s"})},
      mismatchAt(2));
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
}

TEST(Interpreter, CrossEntropyAndMmAreInconclusiveOnMeta) {
  json Target = factory("t", "zeros", {4});
  Target["dtype"] = "int64";
  Verdict CrossEntropy = replayOnMeta(
      {factory("logits", "randn", {4, 10}, "accel"), Target,
       call("l", "cross_entropy", {"logits", "t"})},
      mismatchAt(2));
  EXPECT_EQ(CrossEntropy.Outcome, kInconclusive);
  EXPECT_NE(CrossEntropy.Reason.find("meta stand-in does not check devices"),
            std::string::npos)
      << CrossEntropy.Reason;

  Verdict Mm = replayOnMeta({factory("a", "randn", {4, 3}, "accel"),
                             factory("b", "randn", {3, 2}),
                             call("c", "mm", {"a", "b"})},
                            mismatchAt(2));
  EXPECT_EQ(Mm.Outcome, kInconclusive);
}

TEST(Interpreter, DiscardedToLeavesTheTensorWhereItWas) {
  json Steps = {factory("x", "ones", {2, 2}),
                {{"op", "move"}, {"fn", "to"}, {"self", "x"},
                 {"device", "accel"}}};
  json Expect = {{"kind", "device-after"}, {"step", 1}, {"value", "x"},
                 {"device", "cpu"}};
  EXPECT_EQ(replayOnMeta(Steps, Expect).Outcome, kConfirmed);

  Steps[1]["id"] = "x"; // x = x.to(accel): assigned, so x moves
  Verdict Assigned = replayOnMeta(Steps, Expect);
  EXPECT_EQ(Assigned.Outcome, kNotReproduced);
  EXPECT_EQ(Assigned.Message, "x is on meta after step 1");
}

TEST(Interpreter, ModuleToOnMetaIsInconclusiveOrShowsTheUnregisteredMember) {
  json Steps = {factory("w", "randn", {2}), factory("u", "randn", {2}),
                {{"id", "m"},
                 {"op", "module"},
                 {"parameters", {{"w", "w"}}},
                 {"unregistered", {{"u", "u"}}}},
                {{"op", "module_to"}, {"module", "m"}, {"device", "accel"}}};
  json Expect = {{"kind", "device-after"}, {"step", 3}, {"value", "m.u"},
                 {"device", "cpu"}};
  Verdict V = replayOnMeta(Steps, Expect);
  // LibTorch 1.13 cannot move modules to meta; later versions can.
  EXPECT_NE(V.Outcome, kNotReproduced) << V.Message;
}

TEST(Interpreter, ModuleDtypeMoveSkipsUnregisteredMembers) {
  // The same semantics, observed through dtype on the CPU: the registered
  // tensor is converted in place (its other name "w" follows), "u" is not.
  json Steps = {factory("w", "randn", {2}), factory("u", "randn", {2}),
                {{"id", "m"},
                 {"op", "module"},
                 {"parameters", {{"w", "w"}}},
                 {"unregistered", {{"u", "u"}}}},
                {{"op", "module_to"}, {"module", "m"}, {"dtype", "float64"}},
                {{"id", "d"}, {"op", "call"}, {"fn", "sub"},
                 {"args", {"w", "m.u"}}},
                {{"op", "move"}, {"fn", "to"}, {"self", "m.u"},
                 {"dtype", "float32"}}};
  Verdict UnchangedU = replayOnMeta(
      Steps, {{"kind", "to-copies"}, {"step", 5}});
  EXPECT_EQ(UnchangedU.Outcome, kNotReproduced) << UnchangedU.Reason;
  Steps[5]["self"] = "w";
  Verdict ConvertedW = replayOnMeta(
      Steps, {{"kind", "to-copies"}, {"step", 5}});
  EXPECT_EQ(ConvertedW.Outcome, kConfirmed) << ConvertedW.Reason;
}

/// A leaf converted by a copying to() is a non-leaf: no grad, and the
/// optimizer refuses it. On the CPU a dtype change copies like a move would.
json copiedLeafSteps() {
  json Leaf = factory("w", "randn", {3});
  Leaf["requires_grad"] = true;
  return {Leaf,
          {{"id", "w2"}, {"op", "move"}, {"fn", "to"}, {"self", "w"},
           {"dtype", "float64"}},
          call("l", "sum", {"w2"}),
          {{"op", "backward"}, {"self", "l"}}};
}

TEST(Interpreter, GradOfCopiedLeafIsUndefined) {
  json Expect = {{"kind", "grad-undefined"}, {"step", 3}, {"value", "w2"}};
  Verdict V = replayOnMeta(copiedLeafSteps(), Expect);
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
  EXPECT_EQ(V.Message, "w2.grad() is undefined after step 3");
  Expect["value"] = "w";
  EXPECT_EQ(replayOnMeta(copiedLeafSteps(), Expect).Outcome, kNotReproduced);
}

TEST(Interpreter, OptimizerRejectsTheNonLeaf) {
  json Steps = copiedLeafSteps();
  Steps.push_back({{"id", "opt"}, {"op", "sgd"}, {"params", {"w2"}}});
  Verdict V = replayOnMeta(Steps, {{"kind", "non-leaf-rejected"}, {"step", 4}});
  EXPECT_EQ(V.Outcome, kConfirmed) << V.Reason;
  EXPECT_EQ(V.Message, "can't optimize a non-leaf Tensor");
  Steps[4]["params"] = {"w"};
  Steps.push_back({{"op", "optimizer_step"}, {"optimizer", "opt"}});
  EXPECT_EQ(
      replayOnMeta(Steps, {{"kind", "non-leaf-rejected"}, {"step", 4}}).Outcome,
      kNotReproduced);
}

TEST(Interpreter, BackwardThroughMetaIsInconclusive) {
  json Leaf = factory("w", "randn", {3}, "accel");
  Leaf["requires_grad"] = true;
  Verdict V = replayOnMeta({Leaf, factory("t", "randn", {3}, "accel"),
                            call("l", "mse_loss", {"w", "t"}),
                            {{"op", "backward"}, {"self", "l"}}},
                           {{"kind", "grad-undefined"}, {"step", 3},
                            {"value", "w"}});
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_NE(V.Reason.find("step 3 (backward) failed"), std::string::npos)
      << V.Reason;
}

TEST(Interpreter, HostPointer) {
  json Steps = {factory("x", "ones", {4}),
                {{"op", "data_ptr"}, {"self", "x"}}};
  json Expect = {{"kind", "host-pointer-to-device"}, {"step", 1}};
  EXPECT_EQ(replayOnMeta(Steps, Expect).Outcome, kNotReproduced);
  Steps[0]["device"] = "accel";
  EXPECT_EQ(replayOnMeta(Steps, Expect).Outcome, kInconclusive);
}

TEST(Interpreter, TimingOnMetaIsInconclusive) {
  Verdict V = replayOnMeta({factory("x", "ones", {4}),
                            {{"id", "y"}, {"op", "move"}, {"fn", "cuda"},
                             {"self", "x"}, {"repeat", 10}}},
                           {{"kind", "timing"}, {"step", 1}});
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_FALSE(V.Micros);
}

/// A loop of device work (x * x, summed) and then \p Sync, timed with and
/// without the sync.
json syncCostPlan(json Sync) {
  json Plan = {{"format", "torch-tidy-plan"},
               {"version", 1},
               {"id", "test"},
               {"check", "test"},
               {"steps",
                {factory("x", "randn", {256}, "accel"),
                 call("y", "mul", {"x", "x"}), call("s", "sum", {"y"}),
                 std::move(Sync)}},
               {"expect",
                {{"kind", "sync-cost"}, {"step", 3}, {"work", 1},
                 {"iterations", 20}}}};
  auto Error = torch_tidy::plan::validate(Plan);
  EXPECT_FALSE(Error) << Error->str();
  return Plan;
}

TEST(Interpreter, SyncCostOnMetaIsInconclusive) {
  Verdict V = replay(syncCostPlan({{"op", "sync"}, {"fn", "item"}, {"self", "s"}}),
                     "meta");
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_EQ(V.Step, 3);
  EXPECT_NE(V.Reason.find("measures no device work"), std::string::npos)
      << V.Reason;
  EXPECT_FALSE(V.Micros);
}

TEST(Interpreter, SyncCostRunsEachSyncWithAndWithoutIt) {
  // "accel" on the CPU: the loops run, whatever they measure there.
  for (json Sync :
       {json{{"op", "sync"}, {"fn", "item"}, {"self", "s"}},
        json{{"op", "sync"}, {"fn", "synchronize"}},
        json{{"op", "sync"}, {"fn", "print"}, {"self", "y"}},
        json{{"id", "n"}, {"op", "sync"}, {"fn", "nonzero"}, {"self", "y"}},
        json{{"id", "h"}, {"op", "move"}, {"fn", "cpu"}, {"self", "y"}}}) {
    SCOPED_TRACE(Sync.dump());
    Verdict V = replay(syncCostPlan(Sync), "cpu");
    EXPECT_TRUE(V.Outcome == kConfirmed || V.Outcome == kNotReproduced)
        << V.Outcome << ": " << V.Reason;
    ASSERT_TRUE(V.Micros);
    EXPECT_GE(*V.Micros, 0.0);
    EXPECT_EQ(V.Step, 3);
    EXPECT_NE(V.Message.find("per iteration on cpu (a loop of 20 iterations:"),
              std::string::npos)
        << V.Message;
  }
}

TEST(Interpreter, SyncCostFailingStepIsInconclusive) {
  // item() of a tensor of 256 elements throws: the step that failed says so.
  Verdict V = replay(syncCostPlan({{"op", "sync"}, {"fn", "item"}, {"self", "y"}}),
                     "cpu");
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_EQ(V.Step, 3);
  EXPECT_NE(V.Reason.find("step 3 (sync item) failed"), std::string::npos)
      << V.Reason;
}

TEST(Interpreter, SaveLoadWithAndWithoutDevice) {
  json Steps = {factory("x", "ones", {2}),
                {{"id", "y"}, {"op", "save_load"}, {"self", "x"}}};
  json Expect = {{"kind", "device-after"}, {"step", 1}, {"value", "y"},
                 {"device", "cpu"}};
  EXPECT_EQ(replayOnMeta(Steps, Expect).Outcome, kConfirmed);
  json Linear = {{"id", "fc"}, {"op", "linear"}, {"in_features", 2},
                 {"out_features", 1}};
  Verdict Module = replayOnMeta(
      {Linear, {{"op", "save_load"}, {"module", "fc"}, {"device", "cpu"}}},
      {{"kind", "device-after"}, {"step", 1}, {"value", "fc.weight"},
       {"device", "cpu"}});
  EXPECT_EQ(Module.Outcome, kConfirmed) << Module.Reason;
}

TEST(Interpreter, LinearForwardOnTheCpu) {
  json Steps = {{{"id", "fc"}, {"op", "linear"}, {"in_features", 3},
                 {"out_features", 2}},
                factory("x", "randn", {4, 3}),
                {{"id", "y"}, {"op", "forward"}, {"module", "fc"},
                 {"args", {"x"}}}};
  Verdict V = replayOnMeta(Steps, mismatchAt(2));
  // Linear is addmm: the stand-in cannot clear it even when devices agree.
  EXPECT_EQ(V.Outcome, kInconclusive);
}

TEST(Interpreter, FailingStepIsInconclusiveWithLibTorchsMessage) {
  json Bad = factory("x", "randn", {2});
  Bad["dtype"] = "int64"; // randn has no integer kernel
  Verdict V = replayOnMeta({Bad, call("y", "add", {"x", 1})}, mismatchAt(1));
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_EQ(V.Step, 0);
  EXPECT_NE(V.Reason.find("step 0 (factory randn) failed: "),
            std::string::npos)
      << V.Reason;
}

TEST(Interpreter, MismatchBeforeTheExpectedStepIsInconclusive) {
  Verdict V = replayOnMeta({factory("x", "randn", {4}, "accel"),
                            factory("b", "zeros", {4}),
                            call("y", "add", {"x", "b"}),
                            call("z", "mul", {"x", 2})},
                           mismatchAt(3));
  EXPECT_EQ(V.Outcome, kInconclusive);
  EXPECT_EQ(V.Step, 2);
}

} // namespace
