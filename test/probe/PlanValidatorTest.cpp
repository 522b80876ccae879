//===--- PlanValidatorTest.cpp - Replay plan schema and validator ---------===//

#include "runtime/Plan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using nlohmann::json;
using namespace torch_tidy::plan;

namespace {

/// A plan that uses every op; each test breaks one thing in a copy.
json everyOpPlan() {
  return json::parse(R"({
    "format": "torch-tidy-plan", "version": 1,
    "id": "net.cpp:10:3:device-module-member", "check": "device-module-member",
    "location": {"file": "net.cpp", "line": 10, "column": 3},
    "description": "every op once",
    "steps": [
      {"id": "w", "op": "factory", "fn": "randn", "sizes": [3, 2], "requires_grad": true},
      {"id": "u", "op": "factory", "fn": "zeros", "sizes": [2], "dtype": "float64", "device": "cpu"},
      {"id": "half", "op": "factory", "fn": "tensor", "data": 0.5},
      {"id": "vec", "op": "factory", "fn": "tensor", "data": [0.5, 1]},
      {"id": "idx", "op": "factory", "fn": "arange", "end": 2, "dtype": "int64"},
      {"id": "f", "op": "factory", "fn": "full_like", "like": "w", "value": 2, "device": "accel"},
      {"id": "fc", "op": "linear", "in_features": 3, "out_features": 2},
      {"id": "conv", "op": "conv2d", "in_channels": 1, "out_channels": 2, "kernel_size": 3, "padding": 1},
      {"id": "net", "op": "module", "parameters": {"w": "w"}, "buffers": {"b": "u"},
       "submodules": {"fc": "fc"}, "unregistered": {"u": "u", "conv": "conv"}},
      {"op": "module_to", "module": "net", "device": "accel"},
      {"id": "x", "op": "move", "fn": "cuda", "self": "net.w"},
      {"op": "move", "fn": "to", "self": "x", "dtype": "float16"},
      {"id": "y", "op": "call", "fn": "add", "args": ["x", 1.5]},
      {"id": "c", "op": "call", "fn": "clamp", "args": ["y", 0, 1]},
      {"id": "s", "op": "call", "fn": "cat", "args": ["x", "y"], "dim": 1},
      {"id": "h", "op": "forward", "module": "net.fc", "args": ["net.fc.weight"]},
      {"id": "l", "op": "call", "fn": "cross_entropy", "args": ["h", "idx"], "weight": "vec"},
      {"op": "backward", "self": "l"},
      {"id": "opt", "op": "sgd", "params": ["net", "w"], "lr": 0.1},
      {"op": "zero_grad", "optimizer": "opt"},
      {"op": "optimizer_step", "optimizer": "opt", "repeat": 3},
      {"id": "r", "op": "save_load", "self": "x", "device": "cpu"},
      {"op": "save_load", "module": "fc"},
      {"op": "data_ptr", "self": "r"}
    ],
    "expect": {"kind": "device-after", "step": 10, "value": "net.u", "device": "cpu"}
  })");
}

/// The validator's one-line error for \p Plan ("" when valid).
std::string planProblem(const json &Plan) {
  auto Error = validate(Plan);
  return Error ? Error->str() : "";
}

TEST(PlanValidator, AcceptsAPlanUsingEveryOp) {
  EXPECT_EQ(planProblem(everyOpPlan()), "");
}

TEST(PlanValidator, AcceptsTheDocumentedExample) {
  json Plan = json::parse(R"({
    "format": "torch-tidy-plan", "version": 1,
    "id": "src/train.cpp:42:7:device-factory-without-device",
    "check": "device-factory-without-device",
    "steps": [
      {"id": "acc",  "op": "factory", "fn": "zeros", "sizes": [1], "dtype": "float32", "device": "cpu"},
      {"id": "out",  "op": "factory", "fn": "randn", "sizes": [4, 3], "device": "accel"},
      {"id": "tgt",  "op": "factory", "fn": "randn", "sizes": [4, 3], "device": "accel"},
      {"id": "loss", "op": "call", "fn": "mse_loss", "args": ["out", "tgt"]},
      {"op": "call", "fn": "add_", "args": ["acc", "loss"]}
    ],
    "expect": {"kind": "device-mismatch", "step": 4}
  })");
  EXPECT_EQ(planProblem(Plan), "");
}

struct Malformed {
  const char *Name;
  std::string JsonPointer; ///< what to replace in everyOpPlan()
  json Replacement;
  std::string Expected; ///< the one-line error
};

class PlanValidatorRejects : public ::testing::TestWithParam<Malformed> {};

TEST_P(PlanValidatorRejects, NamingTheProblem) {
  json Plan = everyOpPlan();
  const Malformed &M = GetParam();
  json::json_pointer Ptr(M.JsonPointer);
  if (M.Replacement.is_null())
    Plan[Ptr.parent_pointer()].erase(Ptr.back());
  else
    Plan[Ptr] = M.Replacement;
  EXPECT_EQ(planProblem(Plan), M.Expected);
}

INSTANTIATE_TEST_SUITE_P(
    EachKind, PlanValidatorRejects,
    ::testing::Values(
        Malformed{"WrongFormat", "/format", "torch-plan",
                  "/format: must be \"torch-tidy-plan\", got \"torch-plan\""},
        Malformed{"FutureVersion", "/version", 2,
                  "/version: unsupported version 2 (this probe reads version 1)"},
        Malformed{"MissingId", "/id", nullptr, "/: missing required field 'id'"},
        Malformed{"EmptySteps", "/steps", json::array(),
                  "/steps: must be a non-empty array of steps"},
        Malformed{"UnknownOp", "/steps/0/op", "launch",
                  "/steps/0/op: unknown op 'launch' (known: backward, call, "
                  "conv2d, data_ptr, factory, forward, linear, module, "
                  "module_to, move, optimizer_step, save_load, sgd, sync, "
                  "zero_grad)"},
        Malformed{"UnknownFactory", "/steps/0/fn", "eye",
                  "/steps/0/fn: unknown factory 'eye' (known: arange, empty, "
                  "empty_like, full, full_like, ones, ones_like, rand, "
                  "rand_like, randn, randn_like, tensor, zeros, zeros_like)"},
        Malformed{"UnknownField", "/steps/0/pinned", true,
                  "/steps/0/pinned: unknown field for op 'factory'"},
        Malformed{"UndefinedValue", "/steps/12/args/0", "nope",
                  "/steps/12/args/0: 'nope' is not defined by an earlier step"},
        Malformed{"ModuleWhereTensor", "/steps/12/args/0", "fc",
                  "/steps/12/args/0: 'fc' is a module, expected a tensor"},
        Malformed{"ArityOfCall", "/steps/12/args", json::array({"x"}),
                  "/steps/12/args: 'add' takes 2 argument(s), got 1"},
        Malformed{"NegativeSize", "/steps/0/sizes/1", -2,
                  "/steps/0/sizes/1: must be a non-negative integer"},
        Malformed{"TooManyElements", "/steps/0/sizes",
                  json::array({4096, 4097}),
                  "/steps/0/sizes: more than 16777216 elements (the "
                  "per-tensor cap)"},
        Malformed{"UpperCaseDevice", "/steps/1/device", "CPU",
                  "/steps/1/device: invalid device \"CPU\" (expected \"cpu\", "
                  "\"accel\" or a lower-case device such as \"cuda:0\")"},
        Malformed{"UnknownDtype", "/steps/1/dtype", "float",
                  "/steps/1/dtype: unknown dtype \"float\" (known: bfloat16, "
                  "bool, float16, float32, float64, int16, int32, int64, "
                  "int8, uint8)"},
        Malformed{"RepeatOutOfRange", "/steps/20/repeat", 0,
                  "/steps/20/repeat: must be between 1 and 1000000, got 0"},
        Malformed{"BadIdentifier", "/steps/0/id", "w.x",
                  "/steps/0/id: must be an identifier ([A-Za-z_][A-Za-z0-9_]*), "
                  "got \"w.x\""},
        Malformed{"MixedClampBounds", "/steps/13/args/2", "y",
                  "/steps/13/args: clamp's bounds must be both tensors or "
                  "both numbers"},
        Malformed{"ForwardOfUserModule", "/steps/15/module", "net",
                  "/steps/15/module: forward runs only 'linear' and 'conv2d' "
                  "modules (the probe never runs user code)"},
        Malformed{"UnknownExpectKind", "/expect/kind", "crash",
                  "/expect/kind: unknown observable 'crash' (known: "
                  "device-after, device-mismatch, grad-undefined, "
                  "host-pointer-to-device, non-leaf-rejected, sync-cost, "
                  "timing, to-copies)"},
        Malformed{"ExpectStepOutOfRange", "/expect/step", 24,
                  "/expect/step: must be between 0 and 23, got 24"},
        Malformed{"ExpectValueNotYetDefined", "/expect/value", "r",
                  "/expect/value: 'r' is not defined by an earlier step"},
        Malformed{"ExpectDeviceMissing", "/expect/device", nullptr,
                  "/expect: missing required field 'device'"},
        Malformed{"ToCopiesNeedsAMove", "/expect",
                  json{{"kind", "to-copies"}, {"step", 9}},
                  "/expect/step: 'to-copies' needs step 9 to be a 'move' "
                  "step, it is 'module_to'"}),
    [](const ::testing::TestParamInfo<Malformed> &Info) {
      return std::string(Info.param.Name);
    });

/// A loop of device work and a sync: what device-sync-in-loop emits.
json syncCostPlan(json Sync) {
  json Plan = everyOpPlan();
  Plan["steps"] = json::parse(R"([
    {"id": "x", "op": "factory", "fn": "randn", "sizes": [1024], "device": "accel"},
    {"id": "y", "op": "call", "fn": "mul", "args": ["x", "x"]},
    {"id": "s", "op": "call", "fn": "sum", "args": ["y"]}
  ])");
  Plan["steps"].push_back(std::move(Sync));
  Plan["expect"] = {{"kind", "sync-cost"}, {"step", 3}, {"work", 1},
                    {"iterations", 100}, {"min_micros", 1}};
  return Plan;
}

TEST(PlanValidator, AcceptsSyncCostPlans) {
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "item"}, {"self", "s"}})), "");
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "synchronize"}})), "");
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "print"}, {"self", "y"}})), "");
  EXPECT_EQ(planProblem(syncCostPlan(
                {{"id", "n"}, {"op", "sync"}, {"fn", "nonzero"}, {"self", "y"}})),
            "");
  EXPECT_EQ(planProblem(syncCostPlan({{"id", "h"}, {"op", "move"}, {"fn", "cpu"}, {"self", "y"}})),
            "");
  EXPECT_EQ(planProblem(syncCostPlan({{"id", "h"}, {"op", "move"}, {"fn", "to"},
                                    {"self", "y"}, {"device", "cpu"}})),
            "");
}

TEST(PlanValidator, RejectsMalformedSyncs) {
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "wait"}, {"self", "s"}})),
            "/steps/3/fn: unknown sync 'wait' (known: item, nonzero, print, "
            "synchronize)");
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "item"}})),
            "/steps/3: missing required field 'self'");
  EXPECT_EQ(planProblem(syncCostPlan({{"op", "sync"}, {"fn", "synchronize"}, {"self", "s"}})),
            "/steps/3/self: 'synchronize' takes no tensor");
  EXPECT_EQ(planProblem(syncCostPlan({{"id", "v"}, {"op", "sync"}, {"fn", "item"}, {"self", "s"}})),
            "/steps/3/id: sync 'item' produces no tensor to name");
  json NotASync = syncCostPlan({{"id", "h"}, {"op", "move"}, {"fn", "cuda"}, {"self", "y"}});
  EXPECT_EQ(planProblem(NotASync),
            "/expect/step: 'sync-cost' needs step 3 to be a 'sync' step or a "
            "move to the CPU, it is 'move'");
  json NoWork = syncCostPlan({{"op", "sync"}, {"fn", "item"}, {"self", "s"}});
  NoWork["expect"]["work"] = 3;
  EXPECT_EQ(planProblem(NoWork), "/expect/work: the loop's work must start "
                               "before the sync at step 3");
  NoWork["expect"].erase("work");
  EXPECT_EQ(planProblem(NoWork), "/expect: missing required field 'work'");
  json Forever = syncCostPlan({{"op", "sync"}, {"fn", "item"}, {"self", "s"}});
  Forever["expect"]["iterations"] = 0;
  EXPECT_EQ(planProblem(Forever),
            "/expect/iterations: must be between 1 and 1000000, got 0");
}

TEST(PlanValidator, RejectsANonObject) {
  EXPECT_EQ(planProblem(json::array()), "/: a plan must be a JSON object");
}

TEST(PlanValidator, RejectsSaveLoadOfBothTensorAndModule) {
  json Plan = everyOpPlan();
  Plan["steps"][22]["self"] = "x";
  EXPECT_EQ(planProblem(Plan),
            "/steps/22: needs exactly one of 'self' (a tensor) or 'module'");
}

TEST(PlanValidator, RebindingANameForgetsItsOldMembers) {
  json Plan = everyOpPlan();
  Plan["steps"][11]["id"] = "net"; // "net" now names a tensor
  EXPECT_EQ(planProblem(Plan),
            "/steps/15/module: 'net.fc' is not defined by an earlier step");
}

/// A plan of three float tensors a, b, c, a bool mask m, then \p Call.
json callPlan(json Call) {
  json Plan = everyOpPlan();
  Plan["steps"] = json::parse(R"([
    {"id": "a", "op": "factory", "fn": "randn", "sizes": [4]},
    {"id": "b", "op": "factory", "fn": "randn", "sizes": [4], "device": "accel"},
    {"id": "c", "op": "factory", "fn": "randn", "sizes": [4], "device": "accel"},
    {"id": "m", "op": "factory", "fn": "zeros", "sizes": [4], "dtype": "bool"}
  ])");
  Call["op"] = "call";
  Plan["steps"].push_back(std::move(Call));
  Plan["expect"] = {{"kind", "device-mismatch"}, {"step", 4}};
  return Plan;
}

TEST(PlanValidator, CallFunctionsTakeTheirOwnArguments) {
  EXPECT_EQ(planProblem(callPlan({{"fn", "where"}, {"args", {"m", "a", "b"}}})),
            "");
  EXPECT_EQ(planProblem(callPlan({{"fn", "where"}, {"args", {"m", "a"}}})),
            "/steps/4/args: 'where' takes 3 argument(s), got 2");
  EXPECT_EQ(planProblem(callPlan({{"fn", "lerp"}, {"args", {"a", "b", 0.5}}})),
            "");
  EXPECT_EQ(planProblem(callPlan({{"fn", "hstack"}, {"args", {"a", "b", "c"}}})),
            "");
  EXPECT_EQ(planProblem(callPlan(
                {{"fn", "hstack"}, {"args", {"a", "b"}}, {"dim", 0}})),
            "/steps/4/dim: 'hstack' takes no dim");
  EXPECT_EQ(planProblem(callPlan({{"fn", "true_divide"}, {"args", {"a", 2}}})),
            "");
  EXPECT_EQ(planProblem(callPlan({{"fn", "atan2"}, {"args", {"a", 2}}})),
            "/steps/4/args/1: must name a value defined by an earlier step");
  EXPECT_EQ(planProblem(callPlan({{"fn", "binary_cross_entropy"},
                                {"args", {"a", "b"}},
                                {"weight", "c"}})),
            "");
  EXPECT_EQ(planProblem(callPlan(
                {{"fn", "kl_div"}, {"args", {"a", "b"}}, {"weight", "c"}})),
            "/steps/4/weight: 'kl_div' takes no weight");
  EXPECT_EQ(planProblem(callPlan({{"fn", "add_mm"}, {"args", {"a", "b"}}}))
                .rfind("/steps/4/fn: unknown function 'add_mm' (known: ", 0),
            0u);
}

TEST(PlanValidator, DeviceSpecs) {
  for (const char *Good : {"cpu", "accel", "cuda", "cuda:1", "meta", "mps"})
    EXPECT_TRUE(isValidDeviceSpec(Good)) << Good;
  for (const char *Bad : {"CPU", "gpu", "cuda:", "cuda:x", ""})
    EXPECT_FALSE(isValidDeviceSpec(Bad)) << Bad;
}

std::string writeTemporary(const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/plan-validator-test.json";
  std::ofstream(Path) << Text;
  return Path;
}

TEST(PlanFile, MalformedJsonIsOneLine) {
  std::string Path = writeTemporary("{\"format\": ");
  try {
    loadPlanFile(Path);
    FAIL() << "accepted malformed JSON";
  } catch (const PlanError &E) {
    std::string Message = E.what();
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
    EXPECT_EQ(Message.rfind(Path + ": malformed JSON: ", 0), 0u) << Message;
  }
}

TEST(PlanFile, MissingFile) {
  EXPECT_THROW(
      {
        try {
          loadPlanFile("/nonexistent/plan.json");
        } catch (const PlanError &E) {
          EXPECT_STREQ(E.what(), "/nonexistent/plan.json: cannot open file");
          throw;
        }
      },
      PlanError);
}

TEST(PlanFile, InvalidPlanNamesFileAndPath) {
  json Plan = everyOpPlan();
  Plan["version"] = "1";
  std::string Path = writeTemporary(Plan.dump());
  try {
    loadPlanFile(Path);
    FAIL() << "accepted an invalid plan";
  } catch (const PlanError &E) {
    EXPECT_EQ(std::string(E.what()),
              Path + ": /version: unsupported version \"1\" (this probe "
                     "reads version 1)");
  }
}

} // namespace
