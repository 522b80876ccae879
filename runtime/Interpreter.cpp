//===--- Interpreter.cpp - Replays a plan against LibTorch ----------------===//

#include "runtime/Interpreter.h"

#include "runtime/DeviceErrors.h"
#include "runtime/Plan.h"
#include "runtime/Values.h"

#include <ATen/TensorIndexing.h>
#include <torch/cuda.h>

#include <chrono>
#include <set>
#include <stdexcept>

namespace torch_tidy::runtime {

using nlohmann::json;

nlohmann::json Verdict::toJson() const {
  json J = {{"verdict", Outcome}};
  if (!Message.empty())
    J["message"] = Message;
  if (!Reason.empty())
    J["reason"] = Reason;
  if (Step)
    J["step"] = *Step;
  if (Micros)
    J["micros"] = *Micros;
  return J;
}

Verdict Verdict::fromJson(const nlohmann::json &J) {
  Verdict V;
  V.Outcome = J.at("verdict");
  V.Message = J.value("message", "");
  V.Reason = J.value("reason", "");
  if (J.contains("step"))
    V.Step = J.at("step").get<int64_t>();
  if (J.contains("micros"))
    V.Micros = J.at("micros").get<double>();
  return V;
}

namespace {

at::ScalarType scalarTypeNamed(const std::string &Name) {
  static const std::map<std::string, at::ScalarType> Types = {
      {"float32", at::kFloat}, {"float64", at::kDouble},
      {"float16", at::kHalf},  {"bfloat16", at::kBFloat16},
      {"int64", at::kLong},    {"int32", at::kInt},
      {"int16", at::kShort},   {"int8", at::kChar},
      {"uint8", at::kByte},    {"bool", at::kBool}};
  return Types.at(Name);
}

/// Element-wise ops: their device check is TensorIterator's, which the meta
/// stand-in runs too, so a clean run on meta means a clean run on a GPU.
bool metaChecksDevicesOf(const std::string &Fn) {
  static const std::set<std::string> Faithful = {
      "add",  "sub",  "mul",  "div",     "eq",      "ne",      "lt",
      "le",   "gt",   "ge",   "pow",     "minimum", "maximum", "add_",
      "sub_", "mul_", "div_", "clamp",   "lerp",    "mse_loss", "l1_loss",
      "smooth_l1_loss",       "binary_cross_entropy_with_logits"};
  return Faithful.count(Fn) > 0;
}

at::Scalar scalarOf(const json &Number) {
  if (Number.is_number_integer())
    return at::Scalar(Number.get<int64_t>());
  return at::Scalar(Number.get<double>());
}

std::string deviceName(const at::Device &D) { return D.str(); }

/// The facts a step leaves for the observable to inspect.
struct StepFacts {
  at::Tensor MoveInput, MoveOutput; // "move"
  std::optional<at::Device> PointerDevice; // "data_ptr"
};

class Replayer {
public:
  Replayer(const json &Plan, const std::string &AccelDevice)
      : Plan(Plan), Expect(Plan.at("expect")), Accel(AccelDevice),
        OnMeta(Accel.is_meta()) {}

  Verdict run() {
    const json &Steps = Plan.at("steps");
    int64_t Last = Expect.at("step");
    for (int64_t I = 0; I <= Last; ++I) {
      std::string Error;
      try {
        if (I == Last && Expect.at("kind") == plan::expect::Timing)
          timeStep(Steps[I]);
        else
          runStep(Steps[I]);
      } catch (const c10::Error &E) {
        Error = firstLine(E.what_without_backtrace());
      } catch (const std::exception &E) {
        Error = firstLine(E.what());
      }
      if (!Error.empty())
        return onStepError(I, Steps[I], Error);
    }
    return onStepsDone(Steps[Last]);
  }

private:
  const json &Plan;
  const json &Expect;
  at::Device Accel;
  bool OnMeta;
  std::map<std::string, Value> Values;
  StepFacts Facts;
  std::optional<double> Micros;

  // --- values ------------------------------------------------------------------

  at::Device deviceOf(const std::string &Spec) const {
    if (Spec == "accel")
      return Accel;
    return at::Device(Spec);
  }

  /// Resolves "name" or "module.member.member".
  Value lookup(const std::string &Name) const {
    size_t Dot = Name.find('.');
    Value V = Values.at(Name.substr(0, Dot));
    while (Dot != std::string::npos) {
      size_t Next = Name.find('.', Dot + 1);
      V = memberOf(*std::get<ModulePtr>(V),
                   Name.substr(Dot + 1, Next == std::string::npos
                                            ? std::string::npos
                                            : Next - Dot - 1));
      Dot = Next;
    }
    return V;
  }

  at::Tensor tensor(const json &Name) const {
    return std::get<at::Tensor>(lookup(Name));
  }
  ModulePtr module(const json &Name) const {
    return std::get<ModulePtr>(lookup(Name));
  }

  void bind(const json &Step, Value V) {
    if (Step.contains("id"))
      Values[Step.at("id")] = std::move(V);
  }

  // --- steps -------------------------------------------------------------------

  void runStep(const json &Step) {
    int64_t Repeat = Step.value("repeat", 1);
    for (int64_t I = 0; I < Repeat; ++I)
      runStepOnce(Step);
  }

  void timeStep(const json &Step) {
    runStepOnce(Step); // warm-up: lazy initialisation, caches
    synchronize();
    auto Start = std::chrono::steady_clock::now();
    runStep(Step);
    synchronize();
    std::chrono::duration<double, std::micro> Elapsed =
        std::chrono::steady_clock::now() - Start;
    Micros = Elapsed.count() / static_cast<double>(Step.value("repeat", 1));
  }

  void synchronize() const {
    if (Accel.is_cuda())
      torch::cuda::synchronize();
  }

  void runStepOnce(const json &Step) {
    const std::string &Op = Step.at("op").get_ref<const std::string &>();
    if (Op == "factory")
      bind(Step, factory(Step));
    else if (Op == "move")
      bind(Step, move(Step));
    else if (Op == "call")
      bind(Step, call(Step));
    else if (Op == "linear")
      bind(Step, makeLinear(Step));
    else if (Op == "conv2d")
      bind(Step, makeConv2d(Step));
    else if (Op == "module")
      bind(Step, moduleStep(Step));
    else if (Op == "module_to")
      moduleToStep(Step);
    else if (Op == "forward")
      bind(Step, module(Step.at("module"))->Forward(tensor(Step.at("args")[0])));
    else if (Op == "backward")
      tensor(Step.at("self")).backward();
    else if (Op == "sgd")
      bind(Step, sgd(Step));
    else if (Op == "zero_grad")
      zeroGrad(*std::get<OptimizerPtr>(lookup(Step.at("optimizer"))));
    else if (Op == "optimizer_step")
      optimizerStep(*std::get<OptimizerPtr>(lookup(Step.at("optimizer"))));
    else if (Op == "save_load")
      saveLoad(Step);
    else if (Op == "data_ptr")
      dataPtr(Step);
    else
      throw std::logic_error("op '" + Op + "' passed validation but has no "
                             "implementation");
  }

  at::Tensor factory(const json &Step) {
    const std::string &Fn = Step.at("fn").get_ref<const std::string &>();
    at::TensorOptions Options;
    bool IsLike = Step.contains("like");
    // A *_like factory keeps the source's dtype and device unless told.
    if (!IsLike || Step.contains("dtype"))
      Options = Options.dtype(scalarTypeNamed(Step.value("dtype", "float32")));
    if (!IsLike || Step.contains("device"))
      Options = Options.device(deviceOf(Step.value("device", "cpu")));
    at::Tensor T = IsLike ? likeFactory(Fn, tensor(Step.at("like")), Step,
                                        Options)
                          : sizedFactory(Fn, Step, Options);
    // at:: factories refuse requires_grad in their options; the tensor is
    // a fresh leaf either way.
    if (Step.value("requires_grad", false))
      T.set_requires_grad(true);
    return T;
  }

  at::Tensor sizedFactory(const std::string &Fn, const json &Step,
                          const at::TensorOptions &Options) {
    if (Fn == "tensor")
      return literalTensor(Step.at("data"), Options);
    if (Fn == "arange")
      return at::arange(scalarOf(Step.value("start", json(0))),
                        scalarOf(Step.at("end")),
                        scalarOf(Step.value("step", json(1))), Options);
    std::vector<int64_t> Sizes = Step.at("sizes");
    if (Fn == "zeros")
      return at::zeros(Sizes, Options);
    if (Fn == "ones")
      return at::ones(Sizes, Options);
    if (Fn == "randn")
      return at::randn(Sizes, Options);
    if (Fn == "rand")
      return at::rand(Sizes, Options);
    if (Fn == "empty")
      return at::empty(Sizes, Options);
    return at::full(Sizes, scalarOf(Step.at("value")), Options);
  }

  /// torch::tensor(0.5) is 0-dim; torch::tensor({0.5}) is 1-dim.
  static at::Tensor literalTensor(const json &Data,
                                  const at::TensorOptions &Options) {
    if (Data.is_number())
      return at::scalar_tensor(scalarOf(Data), Options);
    std::vector<double> Values = Data;
    return at::tensor(Values, at::TensorOptions(at::kDouble)).to(Options);
  }

  at::Tensor likeFactory(const std::string &Fn, const at::Tensor &Like,
                         const json &Step, const at::TensorOptions &Options) {
    if (Fn == "zeros_like")
      return at::zeros_like(Like, Options);
    if (Fn == "ones_like")
      return at::ones_like(Like, Options);
    if (Fn == "randn_like")
      return at::randn_like(Like, Options);
    if (Fn == "rand_like")
      return at::rand_like(Like, Options);
    if (Fn == "empty_like")
      return at::empty_like(Like, Options);
    return at::full_like(Like, scalarOf(Step.at("value")), Options);
  }

  at::Tensor move(const json &Step) {
    const std::string &Fn = Step.at("fn").get_ref<const std::string &>();
    at::Tensor Input = tensor(Step.at("self"));
    at::TensorOptions Target;
    if (Fn == "cuda")
      Target = Target.device(Accel);
    else if (Fn == "cpu")
      Target = Target.device(at::kCPU);
    if (Step.contains("device"))
      Target = Target.device(deviceOf(Step.at("device")));
    if (Step.contains("dtype"))
      Target = Target.dtype(scalarTypeNamed(Step.at("dtype")));
    Facts.MoveInput = Input;
    Facts.MoveOutput = Input.to(Target);
    return Facts.MoveOutput;
  }

  at::Tensor call(const json &Step) {
    const std::string &Fn = Step.at("fn").get_ref<const std::string &>();
    const json &Args = Step.at("args");
    if (Fn == "cat" || Fn == "stack") {
      std::vector<at::Tensor> Tensors;
      for (const json &A : Args)
        Tensors.push_back(tensor(A));
      int64_t Dim = Step.value("dim", 0);
      return Fn == "cat" ? at::cat(Tensors, Dim) : at::stack(Tensors, Dim);
    }
    at::Tensor X = tensor(Args[0]);
    if (Args.size() == 1)
      return unary(Fn, X);
    if (Args.size() == 3)
      return ternary(Fn, X, Args[1], Args[2]);
    if (Args[1].is_number())
      return withScalar(Fn, X, scalarOf(Args[1]));
    return binary(Fn, X, tensor(Args[1]), Step);
  }

  static at::Tensor unary(const std::string &Fn, const at::Tensor &X) {
    static const std::map<std::string, at::Tensor (*)(const at::Tensor &)>
        Ops = {{"relu", [](const at::Tensor &T) { return at::relu(T); }},
               {"sigmoid", [](const at::Tensor &T) { return at::sigmoid(T); }},
               {"tanh", [](const at::Tensor &T) { return at::tanh(T); }},
               {"neg", [](const at::Tensor &T) { return at::neg(T); }},
               {"exp", [](const at::Tensor &T) { return at::exp(T); }},
               {"abs", [](const at::Tensor &T) { return at::abs(T); }},
               {"sum", [](const at::Tensor &T) { return T.sum(); }},
               {"mean", [](const at::Tensor &T) { return T.mean(); }}};
    return Ops.at(Fn)(X);
  }

  at::Tensor ternary(const std::string &Fn, const at::Tensor &X, const json &A,
                     const json &B) {
    if (Fn == "lerp")
      return B.is_number() ? at::lerp(X, tensor(A), scalarOf(B))
                           : at::lerp(X, tensor(A), tensor(B));
    // clamp: the validator guarantees both bounds are of one kind.
    if (A.is_number())
      return at::clamp(X, scalarOf(A), scalarOf(B));
    return at::clamp(X, tensor(A), tensor(B));
  }

  static at::Tensor withScalar(const std::string &Fn, at::Tensor X,
                               const at::Scalar &S) {
    static const std::map<std::string,
                          at::Tensor (*)(at::Tensor &, const at::Scalar &)>
        Ops = {
            {"add", [](at::Tensor &T, const at::Scalar &V) { return T.add(V); }},
            {"sub", [](at::Tensor &T, const at::Scalar &V) { return T.sub(V); }},
            {"mul", [](at::Tensor &T, const at::Scalar &V) { return T.mul(V); }},
            {"div", [](at::Tensor &T, const at::Scalar &V) { return T.div(V); }},
            {"eq", [](at::Tensor &T, const at::Scalar &V) { return T.eq(V); }},
            {"ne", [](at::Tensor &T, const at::Scalar &V) { return T.ne(V); }},
            {"lt", [](at::Tensor &T, const at::Scalar &V) { return T.lt(V); }},
            {"le", [](at::Tensor &T, const at::Scalar &V) { return T.le(V); }},
            {"gt", [](at::Tensor &T, const at::Scalar &V) { return T.gt(V); }},
            {"ge", [](at::Tensor &T, const at::Scalar &V) { return T.ge(V); }},
            {"pow", [](at::Tensor &T, const at::Scalar &V) { return T.pow(V); }},
            {"add_", [](at::Tensor &T, const at::Scalar &V) { return T.add_(V); }},
            {"sub_", [](at::Tensor &T, const at::Scalar &V) { return T.sub_(V); }},
            {"mul_", [](at::Tensor &T, const at::Scalar &V) { return T.mul_(V); }},
            {"div_", [](at::Tensor &T, const at::Scalar &V) { return T.div_(V); }}};
    return Ops.at(Fn)(X, S);
  }

  at::Tensor binary(const std::string &Fn, at::Tensor X, const at::Tensor &Y,
                    const json &Step) {
    using BinaryOp = at::Tensor (*)(at::Tensor &, const at::Tensor &);
    static const std::map<std::string, BinaryOp> Ops = {
        {"add", [](at::Tensor &A, const at::Tensor &B) { return A.add(B); }},
        {"sub", [](at::Tensor &A, const at::Tensor &B) { return A.sub(B); }},
        {"mul", [](at::Tensor &A, const at::Tensor &B) { return A.mul(B); }},
        {"div", [](at::Tensor &A, const at::Tensor &B) { return A.div(B); }},
        {"eq", [](at::Tensor &A, const at::Tensor &B) { return A.eq(B); }},
        {"ne", [](at::Tensor &A, const at::Tensor &B) { return A.ne(B); }},
        {"lt", [](at::Tensor &A, const at::Tensor &B) { return A.lt(B); }},
        {"le", [](at::Tensor &A, const at::Tensor &B) { return A.le(B); }},
        {"gt", [](at::Tensor &A, const at::Tensor &B) { return A.gt(B); }},
        {"ge", [](at::Tensor &A, const at::Tensor &B) { return A.ge(B); }},
        {"pow", [](at::Tensor &A, const at::Tensor &B) { return A.pow(B); }},
        {"minimum",
         [](at::Tensor &A, const at::Tensor &B) { return at::minimum(A, B); }},
        {"maximum",
         [](at::Tensor &A, const at::Tensor &B) { return at::maximum(A, B); }},
        {"add_", [](at::Tensor &A, const at::Tensor &B) { return A.add_(B); }},
        {"sub_", [](at::Tensor &A, const at::Tensor &B) { return A.sub_(B); }},
        {"mul_", [](at::Tensor &A, const at::Tensor &B) { return A.mul_(B); }},
        {"div_", [](at::Tensor &A, const at::Tensor &B) { return A.div_(B); }},
        {"copy_", [](at::Tensor &A, const at::Tensor &B) { return A.copy_(B); }},
        {"mm", [](at::Tensor &A, const at::Tensor &B) { return at::mm(A, B); }},
        {"matmul",
         [](at::Tensor &A, const at::Tensor &B) { return at::matmul(A, B); }},
        {"index",
         [](at::Tensor &A, const at::Tensor &B) {
           return A.index({at::indexing::TensorIndex(B)});
         }},
        {"mse_loss",
         [](at::Tensor &A, const at::Tensor &B) { return at::mse_loss(A, B); }},
        {"l1_loss",
         [](at::Tensor &A, const at::Tensor &B) { return at::l1_loss(A, B); }},
        {"smooth_l1_loss", [](at::Tensor &A, const at::Tensor &B) {
           return at::smooth_l1_loss(A, B);
         }}};
    if (auto It = Ops.find(Fn); It != Ops.end())
      return It->second(X, Y);
    if (Fn == "index_select")
      return at::index_select(X, Step.value("dim", 0), Y);
    // An undefined tensor is LibTorch's "no weight".
    at::Tensor Weight = Step.contains("weight") ? tensor(Step.at("weight"))
                                                : at::Tensor();
    if (Fn == "cross_entropy")
      return at::cross_entropy_loss(X, Y, Weight);
    if (Fn == "nll_loss")
      return at::nll_loss(X, Y, Weight);
    at::Tensor PosWeight = Step.contains("pos_weight")
                               ? tensor(Step.at("pos_weight"))
                               : at::Tensor();
    return at::binary_cross_entropy_with_logits(X, Y, Weight, PosWeight);
  }

  ModulePtr moduleStep(const json &Step) {
    // Copies: iterating items() of a temporary would dangle.
    json Parameters = Step.value("parameters", json::object());
    json Buffers = Step.value("buffers", json::object());
    json SubmoduleRefs = Step.value("submodules", json::object());
    json UnregisteredRefs = Step.value("unregistered", json::object());
    auto Tensors = [&](const json &Refs) {
      std::map<std::string, at::Tensor> Out;
      for (auto &[Member, Ref] : Refs.items())
        Out[Member] = tensor(Ref);
      return Out;
    };
    std::map<std::string, ModulePtr> Submodules;
    for (auto &[Member, Ref] : SubmoduleRefs.items())
      Submodules[Member] = module(Ref);
    std::map<std::string, Value> Unregistered;
    for (auto &[Member, Ref] : UnregisteredRefs.items())
      Unregistered[Member] = lookup(Ref);
    return makeModule(Tensors(Parameters), Tensors(Buffers), Submodules,
                      Unregistered);
  }

  void moduleToStep(const json &Step) {
    std::optional<at::Device> Device;
    std::optional<at::ScalarType> Dtype;
    if (Step.contains("device"))
      Device = deviceOf(Step.at("device"));
    if (Step.contains("dtype"))
      Dtype = scalarTypeNamed(Step.at("dtype"));
    moduleTo(*module(Step.at("module")), Device, Dtype);
  }

  OptimizerPtr sgd(const json &Step) {
    std::vector<at::Tensor> Params;
    for (const json &Ref : Step.at("params")) {
      Value V = lookup(Ref);
      if (auto *T = std::get_if<at::Tensor>(&V)) {
        Params.push_back(*T);
      } else {
        std::vector<at::Tensor> Of = parametersOf(*std::get<ModulePtr>(V));
        Params.insert(Params.end(), Of.begin(), Of.end());
      }
    }
    return makeSgd(Params, Step.value("lr", 0.01), Step.value("momentum", 0.0));
  }

  void saveLoad(const json &Step) {
    std::optional<at::Device> Device;
    if (Step.contains("device"))
      Device = deviceOf(Step.at("device"));
    if (Step.contains("module"))
      saveLoadModule(*module(Step.at("module")), Device);
    else
      bind(Step, saveLoadTensor(tensor(Step.at("self")), Device));
  }

  void dataPtr(const json &Step) {
    at::Tensor T = tensor(Step.at("self"));
    Facts.PointerDevice = T.device();
    // Only host memory is read; device memory would crash the replay.
    if (T.device().is_cpu() && T.numel() > 0) {
      volatile unsigned char First =
          *static_cast<const unsigned char *>(T.data_ptr());
      (void)First;
    }
  }

  // --- the observable ------------------------------------------------------------

  std::string describeStep(int64_t I, const json &Step) const {
    std::string Text = "step " + std::to_string(I) + " (" +
                       Step.at("op").get<std::string>();
    if (Step.contains("fn"))
      Text += " " + Step.at("fn").get<std::string>();
    return Text + ")";
  }

  Verdict onStepError(int64_t I, const json &Step, const std::string &Error) {
    const std::string &Kind = Expect.at("kind").get_ref<const std::string &>();
    int64_t Wanted = Expect.at("step");
    bool AtWanted = I == Wanted;
    if (Kind == plan::expect::DeviceMismatch && isDeviceMismatchMessage(Error)) {
      if (AtWanted)
        return {kConfirmed, Error, "", I, std::nullopt};
      return inconclusive(describeStep(I, Step) +
                              " threw a device mismatch before step " +
                              std::to_string(Wanted) + ": " + Error,
                          I);
    }
    if (Kind == plan::expect::NonLeafRejected && AtWanted &&
        isNonLeafOptimizerMessage(Error))
      return {kConfirmed, Error, "", I, std::nullopt};
    std::string Reason = describeStep(I, Step) + " failed: " + Error;
    if (OnMeta)
      Reason += " (the meta stand-in cannot run this step; replay on a GPU)";
    return inconclusive(Reason, I);
  }

  static Verdict inconclusive(const std::string &Reason, int64_t Step) {
    return {kInconclusive, "", Reason, Step, std::nullopt};
  }

  Verdict onStepsDone(const json &Step) {
    const std::string &Kind = Expect.at("kind").get_ref<const std::string &>();
    int64_t K = Expect.at("step");
    std::string At = " after step " + std::to_string(K);
    if (Kind == plan::expect::DeviceMismatch) {
      bool Faithful = Step.at("op") == "call" &&
                      metaChecksDevicesOf(Step.at("fn").get<std::string>());
      if (OnMeta && !Faithful)
        return inconclusive("the meta stand-in does not check devices for " +
                                describeStep(K, Step) + "; replay on a GPU",
                            K);
      return {kNotReproduced,
              describeStep(K, Step) + " ran without a device error on " +
                  deviceName(Accel),
              "", K, std::nullopt};
    }
    if (Kind == plan::expect::DeviceAfter)
      return deviceAfter(K, At);
    if (Kind == plan::expect::GradUndefined) {
      const std::string &Name = Expect.at("value").get_ref<const std::string &>();
      bool Undefined = !tensor(Name).grad().defined();
      return {Undefined ? kConfirmed : kNotReproduced,
              Name + ".grad() is " + (Undefined ? "undefined" : "defined") + At,
              "", K, std::nullopt};
    }
    if (Kind == plan::expect::NonLeafRejected)
      return {kNotReproduced, "the optimizer accepted every tensor", "", K,
              std::nullopt};
    if (Kind == plan::expect::Timing)
      return timing(K, Step);
    if (Kind == plan::expect::ToCopies)
      return toCopies(K);
    return hostPointer(K);
  }

  Verdict deviceAfter(int64_t K, const std::string &At) {
    const std::string &Name = Expect.at("value").get_ref<const std::string &>();
    at::Device Actual = tensor(Name).device();
    at::Device Wanted = deviceOf(Expect.at("device"));
    bool Same = Actual.type() == Wanted.type() &&
                (!Wanted.has_index() || Actual.index() == Wanted.index());
    return {Same ? kConfirmed : kNotReproduced,
            Name + " is on " + deviceName(Actual) + At, "", K, std::nullopt};
  }

  Verdict timing(int64_t K, const json &Step) {
    if (OnMeta)
      return inconclusive("timing on the meta stand-in measures no device "
                          "work; replay on a GPU",
                          K);
    double Threshold = Expect.value("min_micros", 0.0);
    char Text[64];
    std::snprintf(Text, sizeof(Text), "%.2f", *Micros);
    return {*Micros >= Threshold ? kConfirmed : kNotReproduced,
            describeStep(K, Step) + " takes " + Text + " us per iteration on " +
                deviceName(Accel),
            "", K, Micros};
  }

  Verdict toCopies(int64_t K) {
    bool Copied = !Facts.MoveOutput.is_same(Facts.MoveInput);
    std::string Fact =
        Copied ? "to() at step " + std::to_string(K) + " returned a copy on " +
                     deviceName(Facts.MoveOutput.device()) +
                     ": a raw pointer into the temporary dangles"
               : "to() at step " + std::to_string(K) +
                     " returned its input (no copy)";
    return {Copied ? kConfirmed : kNotReproduced, Fact, "", K, std::nullopt};
  }

  Verdict hostPointer(int64_t K) {
    at::Device D = *Facts.PointerDevice;
    if (D.is_meta())
      return inconclusive("a meta tensor has no memory to point at; replay "
                          "on a GPU",
                          K);
    if (D.is_cpu())
      return {kNotReproduced, "data_ptr at step " + std::to_string(K) +
                                  " points into host memory",
              "", K, std::nullopt};
    return {kConfirmed,
            "data_ptr at step " + std::to_string(K) + " points into " +
                deviceName(D) + " memory, which the host must not dereference",
            "", K, std::nullopt};
  }
};

} // namespace

Verdict replay(const json &Plan, const std::string &AccelDevice) {
  return Replayer(Plan, AccelDevice).run();
}

} // namespace torch_tidy::runtime
