//===--- Calls.cpp - Runs a plan's "call" steps with LibTorch -------------===//

#include "runtime/Calls.h"

#include "runtime/PlanCalls.h"

#include <ATen/TensorIndexing.h>

#include <map>
#include <vector>

namespace torch_tidy::runtime {

using nlohmann::json;

namespace {

using UnaryOp = at::Tensor (*)(const at::Tensor &);
using ScalarOp = at::Tensor (*)(at::Tensor &, const at::Scalar &);
using BinaryOp = at::Tensor (*)(at::Tensor &, const at::Tensor &);

at::Tensor unary(const std::string &Fn, const at::Tensor &X) {
  static const std::map<std::string, UnaryOp> Ops = {
      {"relu", [](const at::Tensor &T) { return at::relu(T); }},
      {"sigmoid", [](const at::Tensor &T) { return at::sigmoid(T); }},
      {"tanh", [](const at::Tensor &T) { return at::tanh(T); }},
      {"neg", [](const at::Tensor &T) { return at::neg(T); }},
      {"exp", [](const at::Tensor &T) { return at::exp(T); }},
      {"abs", [](const at::Tensor &T) { return at::abs(T); }},
      {"sum", [](const at::Tensor &T) { return T.sum(); }},
      {"mean", [](const at::Tensor &T) { return T.mean(); }}};
  return Ops.at(Fn)(X);
}

/// `x + 1.5`: a tensor and a C++ scalar.
at::Tensor withScalar(const std::string &Fn, at::Tensor X,
                      const at::Scalar &S) {
  static const std::map<std::string, ScalarOp> Ops = {
      {"add", [](at::Tensor &T, const at::Scalar &V) { return T.add(V); }},
      {"sub", [](at::Tensor &T, const at::Scalar &V) { return T.sub(V); }},
      {"mul", [](at::Tensor &T, const at::Scalar &V) { return T.mul(V); }},
      {"div", [](at::Tensor &T, const at::Scalar &V) { return T.div(V); }},
      {"true_divide",
       [](at::Tensor &T, const at::Scalar &V) { return T.true_divide(V); }},
      {"fmod", [](at::Tensor &T, const at::Scalar &V) { return T.fmod(V); }},
      {"remainder",
       [](at::Tensor &T, const at::Scalar &V) { return T.remainder(V); }},
      {"pow", [](at::Tensor &T, const at::Scalar &V) { return T.pow(V); }},
      {"eq", [](at::Tensor &T, const at::Scalar &V) { return T.eq(V); }},
      {"ne", [](at::Tensor &T, const at::Scalar &V) { return T.ne(V); }},
      {"lt", [](at::Tensor &T, const at::Scalar &V) { return T.lt(V); }},
      {"le", [](at::Tensor &T, const at::Scalar &V) { return T.le(V); }},
      {"gt", [](at::Tensor &T, const at::Scalar &V) { return T.gt(V); }},
      {"ge", [](at::Tensor &T, const at::Scalar &V) { return T.ge(V); }},
      {"bitwise_and",
       [](at::Tensor &T, const at::Scalar &V) { return T.bitwise_and(V); }},
      {"bitwise_or",
       [](at::Tensor &T, const at::Scalar &V) { return T.bitwise_or(V); }},
      {"bitwise_xor",
       [](at::Tensor &T, const at::Scalar &V) { return T.bitwise_xor(V); }},
      {"add_", [](at::Tensor &T, const at::Scalar &V) { return T.add_(V); }},
      {"sub_", [](at::Tensor &T, const at::Scalar &V) { return T.sub_(V); }},
      {"mul_", [](at::Tensor &T, const at::Scalar &V) { return T.mul_(V); }},
      {"div_", [](at::Tensor &T, const at::Scalar &V) { return T.div_(V); }},
      {"pow_", [](at::Tensor &T, const at::Scalar &V) { return T.pow_(V); }}};
  return Ops.at(Fn)(X, S);
}

/// Two tensors, for every binary call function without options.
at::Tensor binary(const std::string &Fn, at::Tensor X, const at::Tensor &Y) {
  static const std::map<std::string, BinaryOp> Ops = {
      {"add", [](at::Tensor &A, const at::Tensor &B) { return A.add(B); }},
      {"sub", [](at::Tensor &A, const at::Tensor &B) { return A.sub(B); }},
      {"mul", [](at::Tensor &A, const at::Tensor &B) { return A.mul(B); }},
      {"div", [](at::Tensor &A, const at::Tensor &B) { return A.div(B); }},
      {"true_divide",
       [](at::Tensor &A, const at::Tensor &B) { return A.true_divide(B); }},
      {"fmod", [](at::Tensor &A, const at::Tensor &B) { return A.fmod(B); }},
      {"remainder",
       [](at::Tensor &A, const at::Tensor &B) { return A.remainder(B); }},
      {"pow", [](at::Tensor &A, const at::Tensor &B) { return A.pow(B); }},
      {"eq", [](at::Tensor &A, const at::Tensor &B) { return A.eq(B); }},
      {"ne", [](at::Tensor &A, const at::Tensor &B) { return A.ne(B); }},
      {"lt", [](at::Tensor &A, const at::Tensor &B) { return A.lt(B); }},
      {"le", [](at::Tensor &A, const at::Tensor &B) { return A.le(B); }},
      {"gt", [](at::Tensor &A, const at::Tensor &B) { return A.gt(B); }},
      {"ge", [](at::Tensor &A, const at::Tensor &B) { return A.ge(B); }},
      {"bitwise_and",
       [](at::Tensor &A, const at::Tensor &B) { return A.bitwise_and(B); }},
      {"bitwise_or",
       [](at::Tensor &A, const at::Tensor &B) { return A.bitwise_or(B); }},
      {"bitwise_xor",
       [](at::Tensor &A, const at::Tensor &B) { return A.bitwise_xor(B); }},
      {"minimum",
       [](at::Tensor &A, const at::Tensor &B) { return at::minimum(A, B); }},
      {"maximum",
       [](at::Tensor &A, const at::Tensor &B) { return at::maximum(A, B); }},
      {"atan2",
       [](at::Tensor &A, const at::Tensor &B) { return at::atan2(A, B); }},
      {"hypot",
       [](at::Tensor &A, const at::Tensor &B) { return at::hypot(A, B); }},
      {"logical_and",
       [](at::Tensor &A,
          const at::Tensor &B) { return at::logical_and(A, B); }},
      {"logical_or",
       [](at::Tensor &A, const at::Tensor &B) { return at::logical_or(A, B); }},
      {"add_", [](at::Tensor &A, const at::Tensor &B) { return A.add_(B); }},
      {"sub_", [](at::Tensor &A, const at::Tensor &B) { return A.sub_(B); }},
      {"mul_", [](at::Tensor &A, const at::Tensor &B) { return A.mul_(B); }},
      {"div_", [](at::Tensor &A, const at::Tensor &B) { return A.div_(B); }},
      {"pow_", [](at::Tensor &A, const at::Tensor &B) { return A.pow_(B); }},
      {"copy_", [](at::Tensor &A, const at::Tensor &B) { return A.copy_(B); }},
      {"mm", [](at::Tensor &A, const at::Tensor &B) { return at::mm(A, B); }},
      {"matmul",
       [](at::Tensor &A, const at::Tensor &B) { return at::matmul(A, B); }},
      {"bmm", [](at::Tensor &A, const at::Tensor &B) { return at::bmm(A, B); }},
      {"mv", [](at::Tensor &A, const at::Tensor &B) { return at::mv(A, B); }},
      {"dot", [](at::Tensor &A, const at::Tensor &B) { return at::dot(A, B); }},
      {"index", [](at::Tensor &A,
                   const at::Tensor
                       &B) { return A.index({at::indexing::TensorIndex(B)}); }},
      {"mse_loss",
       [](at::Tensor &A, const at::Tensor &B) { return at::mse_loss(A, B); }},
      {"l1_loss",
       [](at::Tensor &A, const at::Tensor &B) { return at::l1_loss(A, B); }},
      {"smooth_l1_loss",
       [](at::Tensor &A,
          const at::Tensor &B) { return at::smooth_l1_loss(A, B); }},
      {"huber_loss",
       [](at::Tensor &A, const at::Tensor &B) { return at::huber_loss(A, B); }},
      {"kl_div",
       [](at::Tensor &A, const at::Tensor &B) { return at::kl_div(A, B); }}};
  return Ops.at(Fn)(X, Y);
}

/// The losses with a class weight; an undefined tensor is "no weight".
at::Tensor weightedLoss(const std::string &Fn, const at::Tensor &Input,
                        const at::Tensor &Target, const json &Step,
                        const TensorLookup &Tensor) {
  at::Tensor Weight =
      Step.contains("weight") ? Tensor(Step.at("weight")) : at::Tensor();
  if (Fn == "cross_entropy")
    return at::cross_entropy_loss(Input, Target, Weight);
  if (Fn == "nll_loss")
    return at::nll_loss(Input, Target, Weight);
  if (Fn == "binary_cross_entropy")
    return at::binary_cross_entropy(Input, Target, Weight);
  at::Tensor PosWeight = Step.contains("pos_weight")
                             ? Tensor(Step.at("pos_weight"))
                             : at::Tensor();
  return at::binary_cross_entropy_with_logits(Input, Target, Weight, PosWeight);
}

at::Tensor joined(const std::string &Fn, const std::vector<at::Tensor> &Parts,
                  int64_t Dim) {
  if (Fn == "cat")
    return at::cat(Parts, Dim);
  if (Fn == "stack")
    return at::stack(Parts, Dim);
  if (Fn == "hstack")
    return at::hstack(Parts);
  return at::vstack(Parts);
}

at::Tensor ternary(const std::string &Fn, const at::Tensor &X, const json &A,
                   const json &B, const TensorLookup &Tensor) {
  if (Fn == "where")
    return at::where(X, Tensor(A), Tensor(B));
  if (Fn == "lerp")
    return B.is_number() ? at::lerp(X, Tensor(A), scalarOf(B))
                         : at::lerp(X, Tensor(A), Tensor(B));
  // clamp: the validator guarantees both bounds are of one kind.
  if (A.is_number())
    return at::clamp(X, scalarOf(A), scalarOf(B));
  return at::clamp(X, Tensor(A), Tensor(B));
}

} // namespace

at::Scalar scalarOf(const json &Number) {
  if (Number.is_number_integer())
    return at::Scalar(Number.get<int64_t>());
  return at::Scalar(Number.get<double>());
}

at::Tensor runCall(const json &Step, const TensorLookup &Tensor) {
  const std::string &Fn = Step.at("fn").get_ref<const std::string &>();
  const json &Args = Step.at("args");
  if (Fn == "cat" || Fn == "stack" || Fn == "hstack" || Fn == "vstack") {
    std::vector<at::Tensor> Parts;
    for (const json &A : Args)
      Parts.push_back(Tensor(A));
    return joined(Fn, Parts, Step.value("dim", 0));
  }
  at::Tensor X = Tensor(Args[0]);
  if (Args.size() == 1)
    return unary(Fn, X);
  if (Args.size() == 3)
    return ternary(Fn, X, Args[1], Args[2], Tensor);
  if (Args[1].is_number())
    return withScalar(Fn, X, scalarOf(Args[1]));
  at::Tensor Y = Tensor(Args[1]);
  if (Fn == "index_select")
    return at::index_select(X, Step.value("dim", 0), Y);
  if (plan::callTakesWeight(Fn))
    return weightedLoss(Fn, X, Y, Step, Tensor);
  return binary(Fn, X, Y);
}

} // namespace torch_tidy::runtime
