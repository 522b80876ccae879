//===--- Interpreter.cpp - Replays a plan against LibTorch ----------------===//

#include "runtime/Interpreter.h"

#include "runtime/Calls.h"
#include "runtime/DeviceErrors.h"
#include "runtime/MetaStandIn.h"
#include "runtime/Plan.h"
#include "runtime/Values.h"

#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <stdexcept>

namespace torch_tidy::runtime {

using nlohmann::json;
using plan::Verdict;
namespace outcome = plan::outcome;

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
    if (Expect.at("kind") == plan::expect::SyncCost)
      return syncCost();
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
  int64_t Current = 0;

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
      bind(Step, runCall(Step, [this](const json &Name) {
             return tensor(Name);
           }));
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
    else if (Op == "sync")
      sync(Step);
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

  void sync(const json &Step) {
    const std::string &Fn = Step.at("fn").get_ref<const std::string &>();
    if (Fn == "synchronize") {
      synchronize();
      return;
    }
    at::Tensor T = tensor(Step.at("self"));
    if (Fn == "item") {
      volatile double Value = T.item().toDouble();
      (void)Value;
    } else if (Fn == "print") {
      std::ostringstream Out;
      Out << T;
    } else {
      bind(Step, T.nonzero());
    }
  }

  // --- sync-cost: a loop with and without the sync ---------------------------------

  /// Runs steps [From, To] once each; Current tells which one failed.
  void runRange(int64_t From, int64_t To) {
    const json &Steps = Plan.at("steps");
    for (Current = From; Current <= To; ++Current)
      runStepOnce(Steps[Current]);
  }

  /// Microseconds for \p Iterations runs of steps [Work, Last], then one
  /// run of [Last + 1, Sync] (the sync the loop left out, if any), until the
  /// device is idle.
  double timeLoop(int64_t Iterations, int64_t Work, int64_t Last,
                  int64_t Sync) {
    synchronize();
    auto Start = std::chrono::steady_clock::now();
    for (int64_t I = 0; I < Iterations; ++I)
      runRange(Work, Last);
    runRange(Last + 1, Sync);
    synchronize();
    std::chrono::duration<double, std::micro> Elapsed =
        std::chrono::steady_clock::now() - Start;
    return Elapsed.count();
  }

  Verdict syncCost() {
    const json &Steps = Plan.at("steps");
    int64_t Work = Expect.at("work");
    int64_t Sync = Expect.at("step");
    int64_t Iterations = Expect.value("iterations", 100);
    double With = 0, Without = 0;
    try {
      runRange(0, Work - 1);
      if (OnMeta)
        return inconclusive("timing on the meta stand-in measures no device "
                            "work; replay on a GPU",
                            Sync);
      runRange(Work, Sync); // warm-up: lazy initialisation, caches
      With = timeLoop(Iterations, Work, Sync, Sync);
      Without = timeLoop(Iterations, Work, Sync - 1, Sync);
    } catch (const c10::Error &E) {
      return onStepError(Current, Steps[Current],
                         firstLine(E.what_without_backtrace()));
    } catch (const std::exception &E) {
      return onStepError(Current, Steps[Current], firstLine(E.what()));
    }
    double PerIteration = std::max(0.0, (With - Without) / Iterations);
    char Text[160];
    std::snprintf(Text, sizeof(Text),
                  " costs %.2f us per iteration on %s (a loop of %lld "
                  "iterations: %.2f us with it, %.2f us without)",
                  PerIteration, deviceName(Accel).c_str(),
                  static_cast<long long>(Iterations), With, Without);
    bool Costs = PerIteration >= Expect.value("min_micros", 1.0);
    return {Costs ? outcome::Confirmed : outcome::NotReproduced,
            describeStep(Sync, Steps[Sync]) + Text, "", Sync, PerIteration};
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
      // Never confirmed on meta where meta does not model the devices.
      if (AtWanted && !checksDevicesAsAGpu(Step))
        return standInCannotDecide(I, Step);
      if (AtWanted)
        return {outcome::Confirmed, Error, "", I, std::nullopt};
      return inconclusive(describeStep(I, Step) +
                              " threw a device mismatch before step " +
                              std::to_string(Wanted) + ": " + Error,
                          I);
    }
    if (Kind == plan::expect::NonLeafRejected && AtWanted &&
        isNonLeafOptimizerMessage(Error))
      return {outcome::Confirmed, Error, "", I, std::nullopt};
    std::string Reason = describeStep(I, Step) + " failed: " + Error;
    if (OnMeta)
      Reason += " (the meta stand-in cannot run this step; replay on a GPU)";
    return inconclusive(Reason, I);
  }

  /// Whether the backend checks the devices of \p Step's operands as a GPU
  /// does: always on a GPU, for some call functions on the meta stand-in.
  bool checksDevicesAsAGpu(const json &Step) const {
    return !OnMeta || (Step.at("op") == "call" &&
                       metaChecksDevicesOf(Step.at("fn").get<std::string>()));
  }

  Verdict standInCannotDecide(int64_t I, const json &Step) const {
    return inconclusive("the meta stand-in does not check devices for " +
                            describeStep(I, Step) + " as a GPU does; replay "
                            "on a GPU",
                        I);
  }

  static Verdict inconclusive(const std::string &Reason, int64_t Step) {
    return {outcome::Inconclusive, "", Reason, Step, std::nullopt};
  }

  Verdict onStepsDone(const json &Step) {
    const std::string &Kind = Expect.at("kind").get_ref<const std::string &>();
    int64_t K = Expect.at("step");
    std::string At = " after step " + std::to_string(K);
    if (Kind == plan::expect::DeviceMismatch) {
      if (!checksDevicesAsAGpu(Step))
        return standInCannotDecide(K, Step);
      return {outcome::NotReproduced,
              describeStep(K, Step) + " ran without a device error on " +
                  deviceName(Accel),
              "", K, std::nullopt};
    }
    if (Kind == plan::expect::DeviceAfter)
      return deviceAfter(K, At);
    if (Kind == plan::expect::GradUndefined) {
      const std::string &Name = Expect.at("value").get_ref<const std::string &>();
      bool Undefined = !tensor(Name).grad().defined();
      return {Undefined ? outcome::Confirmed : outcome::NotReproduced,
              Name + ".grad() is " + (Undefined ? "undefined" : "defined") + At,
              "", K, std::nullopt};
    }
    if (Kind == plan::expect::NonLeafRejected)
      return {outcome::NotReproduced, "the optimizer accepted every tensor", "",
              K, std::nullopt};
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
    return {Same ? outcome::Confirmed : outcome::NotReproduced,
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
    return {*Micros >= Threshold ? outcome::Confirmed : outcome::NotReproduced,
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
    return {Copied ? outcome::Confirmed : outcome::NotReproduced, Fact, "", K,
            std::nullopt};
  }

  Verdict hostPointer(int64_t K) {
    at::Device D = *Facts.PointerDevice;
    if (D.is_meta())
      return inconclusive("a meta tensor has no memory to point at; replay "
                          "on a GPU",
                          K);
    if (D.is_cpu())
      return {outcome::NotReproduced, "data_ptr at step " + std::to_string(K) +
                                  " points into host memory",
              "", K, std::nullopt};
    return {outcome::Confirmed,
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
