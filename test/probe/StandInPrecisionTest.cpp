//===--- StandInPrecisionTest.cpp - meta confirms only what it models -----===//
//
// Every call function of the plan format, replayed on the meta stand-in with
// a CPU operand beside a meta one and a device-mismatch observable: confirmed
// exactly where meta checks devices as a GPU does (measured with LibTorch
// 1.13, DESIGN.md "LibTorch facts"), never elsewhere. And every one of them
// runs on the CPU.
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter.h"
#include "runtime/PlanCalls.h"

#include <gtest/gtest.h>

#include <set>

using nlohmann::json;
using namespace torch_tidy;

namespace {

/// Where meta throws the same-device message as a GPU does.
const std::set<std::string> &measuredFaithful() {
  static const std::set<std::string> Fns = {
      "add", "sub", "mul", "div", "true_divide", "fmod", "remainder", "pow",
      "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or",
      "bitwise_xor", "minimum", "maximum", "atan2", "hypot", "add_", "sub_",
      "mul_", "div_", "pow_", "clamp", "lerp", "mse_loss", "l1_loss",
      "smooth_l1_loss", "kl_div", "binary_cross_entropy_with_logits"};
  return Fns;
}

json factoryOn(const std::string &Id, const std::string &Device, json Sizes,
               const std::string &Dtype = "float32",
               const std::string &Fill = "rand") {
  return {{"id", Id},       {"op", "factory"},  {"fn", Fill},
          {"sizes", Sizes}, {"device", Device}, {"dtype", Dtype}};
}

/// Operands \p Fn accepts, in the order it takes them: one on the CPU (never
/// 0-dim), the others on the accelerator.
json operandsOf(const std::string &Fn, size_t Arity) {
  if (Fn == "mm" || Fn == "matmul")
    return {factoryOn("a", "accel", {4, 4}), factoryOn("b", "cpu", {4, 4})};
  if (Fn == "bmm")
    return {factoryOn("a", "accel", {2, 4, 4}), factoryOn("b", "cpu", {2, 4, 4})};
  if (Fn == "mv")
    return {factoryOn("a", "accel", {4, 4}), factoryOn("b", "cpu", {4})};
  if (Fn == "cross_entropy" || Fn == "nll_loss")
    return {factoryOn("a", "accel", {4, 3}),
            factoryOn("b", "cpu", {4}, "int64", "zeros")};
  if (Fn == "index_select" || Fn == "index")
    return {factoryOn("a", "accel", {4, 3}),
            factoryOn("b", "cpu", {2}, "int64", "zeros")};
  if (Fn.rfind("bitwise_", 0) == 0)
    return {factoryOn("a", "accel", {4}, "bool", "zeros"),
            factoryOn("b", "cpu", {4}, "bool", "zeros")};
  if (Fn == "where")
    return {factoryOn("a", "cpu", {4}, "bool", "zeros"),
            factoryOn("b", "accel", {4}), factoryOn("c", "accel", {4})};
  if (Arity == 1)
    return json::array({factoryOn("a", "accel", {4})});
  json Operands = {factoryOn("a", "accel", {4}), factoryOn("b", "cpu", {4})};
  if (Arity == 3)
    Operands.push_back(factoryOn("c", "accel", {4}));
  return Operands;
}

/// \p Fn's operands and call, expecting a device mismatch at the call,
/// replayed with "accel" meaning \p AccelDevice.
plan::Verdict replayMismatch(const std::string &Fn, size_t Arity,
                             const std::string &AccelDevice) {
  json Steps = operandsOf(Fn, Arity);
  json Args = json::array();
  for (const json &Step : Steps)
    Args.push_back(Step.at("id"));
  Steps.push_back({{"id", "r"}, {"op", "call"}, {"fn", Fn}, {"args", Args}});
  json Plan = {
      {"format", "torch-tidy-plan"},
      {"version", 1},
      {"id", Fn},
      {"check", "test"},
      {"steps", Steps},
      {"expect", {{"kind", "device-mismatch"}, {"step", Steps.size() - 1}}}};
  auto Error = plan::validate(Plan);
  EXPECT_FALSE(Error) << Fn << ": " << Error->str();
  return runtime::replay(Plan, AccelDevice);
}

size_t arityOf(const plan::CallSignature &Signature) {
  return Signature == "*" ? 2 : Signature.size();
}

TEST(StandInPrecision, ConfirmedOnlyWhereMetaChecksDevicesAsAGpu) {
  for (const auto &[Fn, Signature] : plan::callSignatures()) {
    size_t Arity = arityOf(Signature);
    if (Arity < 2)
      continue; // one tensor cannot meet another
    plan::Verdict V = replayMismatch(Fn, Arity, "meta");
    if (measuredFaithful().count(Fn)) {
      EXPECT_EQ(V.Outcome, plan::outcome::Confirmed) << Fn << ": " << V.Reason;
      EXPECT_NE(V.Message.find("Expected all tensors to be on the same device"),
                std::string::npos)
          << Fn << ": " << V.Message;
    } else {
      EXPECT_EQ(V.Outcome, plan::outcome::Inconclusive)
          << Fn << " on meta: " << V.Message;
      EXPECT_FALSE(V.Reason.empty()) << Fn;
    }
  }
}

TEST(StandInPrecision, EveryCallRunsOnTheCpu) {
  // With every operand on the CPU the replay runs clean: each call function
  // is implemented, with the arguments the plan format gives it.
  for (const auto &[Fn, Signature] : plan::callSignatures()) {
    plan::Verdict V = replayMismatch(Fn, arityOf(Signature), "cpu");
    EXPECT_EQ(V.Outcome, plan::outcome::NotReproduced)
        << Fn << ": " << V.Reason;
  }
}

TEST(StandInPrecision, AThrowMetaDoesNotModelIsNotAConfirmation) {
  // A CPU weight beside meta operands: whatever meta throws for
  // cross_entropy, it is not how a GPU decides.
  json Plan = json::parse(R"({
    "format": "torch-tidy-plan", "version": 1, "id": "w", "check": "test",
    "steps": [
      {"id": "x", "op": "factory", "fn": "randn", "sizes": [4, 3], "device": "accel"},
      {"id": "t", "op": "factory", "fn": "zeros", "sizes": [4], "dtype": "int64", "device": "accel"},
      {"id": "w", "op": "factory", "fn": "ones", "sizes": [3]},
      {"id": "l", "op": "call", "fn": "cross_entropy", "args": ["x", "t"], "weight": "w"}
    ],
    "expect": {"kind": "device-mismatch", "step": 3}
  })");
  ASSERT_FALSE(plan::validate(Plan));
  plan::Verdict V = runtime::replay(Plan, "meta");
  EXPECT_EQ(V.Outcome, plan::outcome::Inconclusive) << V.Message;
}

} // namespace
