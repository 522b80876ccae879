//===--- Plan.cpp - Replay plan schema and validator ----------------------===//

#include "runtime/Plan.h"
#include "runtime/PlanCalls.h"

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace torch_tidy::plan {

using nlohmann::json;

std::string ValidationError::str() const {
  // Keys and values quoted in the path and the problem may hold line breaks
  // and other control characters: they are escaped, so the error stays one
  // line.
  std::string Line;
  for (char C : (Path.empty() ? std::string("/") : Path) + ": " + Problem) {
    unsigned char U = C;
    if (U >= 0x20 && U != 0x7f) {
      Line += C;
      continue;
    }
    static const char Hex[] = "0123456789abcdef";
    Line += C == '\n' ? "\\n"
            : C == '\r' ? "\\r"
            : C == '\t' ? "\\t"
                        : std::string("\\x") + Hex[U >> 4] + Hex[U & 15];
  }
  return Line;
}

bool isValidDeviceSpec(const std::string &Spec) {
  // LibTorch device strings are lower-case; torch::Device("CPU") throws.
  static const std::regex Literal("(cpu|cuda|meta|mps|xpu|hip)(:[0-9]+)?");
  return Spec == "accel" || std::regex_match(Spec, Literal);
}

namespace {

/// What a value name refers to while the plan is walked.
enum class Kind { Tensor, Linear, Conv2d, Module, Optimizer };

bool isModule(Kind K) {
  return K == Kind::Linear || K == Kind::Conv2d || K == Kind::Module;
}

const char *kindName(Kind K) {
  switch (K) {
  case Kind::Tensor:
    return "a tensor";
  case Kind::Optimizer:
    return "an optimizer";
  default:
    return "a module";
  }
}

struct Failure {
  std::string Path;
  std::string Problem;
};

[[noreturn]] void fail(const std::string &Path, const std::string &Problem) {
  throw Failure{Path, Problem};
}

/// "/<key>" as a JSON pointer reference token: '~' and '/' escaped (RFC 6901).
std::string token(const std::string &Key) {
  std::string Out = "/";
  for (char C : Key)
    Out += C == '~' ? "~0" : C == '/' ? "~1" : std::string(1, C);
  return Out;
}

std::string joinNames(const std::set<std::string> &Names) {
  std::string Out;
  for (const std::string &N : Names)
    Out += (Out.empty() ? "" : ", ") + N;
  return Out;
}

const std::set<std::string> &factoryFns() {
  static const std::set<std::string> Fns = {
      "zeros",      "ones",      "randn",      "rand",      "empty",
      "full",       "tensor",    "arange",     "zeros_like", "ones_like",
      "randn_like", "rand_like", "empty_like", "full_like"};
  return Fns;
}

const std::set<std::string> &dtypes() {
  static const std::set<std::string> Names = {
      "float32", "float64", "float16", "bfloat16", "int64",
      "int32",   "int16",   "int8",    "uint8",    "bool"};
  return Names;
}

/// The keys each op accepts ("op", "id" and "repeat" are accepted by all).
const std::map<std::string, std::set<std::string>> &opKeys() {
  static const std::map<std::string, std::set<std::string>> Keys = {
      {"factory",
       {"fn", "sizes", "dtype", "device", "requires_grad", "value", "data",
        "start", "end", "step", "like"}},
      {"move", {"fn", "self", "device", "dtype"}},
      {"call", {"fn", "args", "dim", "weight", "pos_weight"}},
      {"linear", {"in_features", "out_features", "bias"}},
      {"conv2d",
       {"in_channels", "out_channels", "kernel_size", "stride", "padding",
        "bias"}},
      {"module", {"parameters", "buffers", "submodules", "unregistered"}},
      {"module_to", {"module", "device", "dtype"}},
      {"forward", {"module", "args"}},
      {"backward", {"self"}},
      {"sgd", {"params", "lr", "momentum"}},
      {"zero_grad", {"optimizer"}},
      {"optimizer_step", {"optimizer"}},
      {"save_load", {"self", "module", "device"}},
      {"data_ptr", {"self"}},
      {"sync", {"fn", "self"}}};
  return Keys;
}

/// Ops whose result is a new value and therefore need an "id".
const std::set<std::string> &opsNeedingId() {
  static const std::set<std::string> Ops = {"factory", "linear", "conv2d",
                                            "module", "sgd"};
  return Ops;
}

const std::set<std::string> &expectKinds() {
  static const std::set<std::string> Kinds = {
      expect::DeviceMismatch, expect::DeviceAfter,  expect::GradUndefined,
      expect::NonLeafRejected, expect::Timing,      expect::ToCopies,
      expect::HostPointerToDevice, expect::SyncCost};
  return Kinds;
}

class Validator {
public:
  explicit Validator(const json &Plan) : Plan(Plan) {}

  void run() {
    if (!Plan.is_object())
      fail("", "a plan must be a JSON object");
    checkHeader();
    checkStepsArray();
    checkExpectShape();
    const json &Steps = Plan.at("steps");
    for (size_t I = 0; I < Steps.size(); ++I) {
      checkStep(Steps[I], "/steps/" + std::to_string(I));
      if (static_cast<int64_t>(I) == ExpectStep)
        checkExpectAgainstStep(Steps[I]);
    }
  }

private:
  const json &Plan;
  std::map<std::string, Kind> Symbols;
  int64_t ExpectStep = -1;
  int64_t PlanElements = 0;

  // --- primitive field checks -------------------------------------------

  const json &require(const json &Obj, const std::string &Key,
                      const std::string &Path) {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      fail(Path, "missing required field '" + Key + "'");
    return *It;
  }

  std::string stringField(const json &Obj, const std::string &Key,
                          const std::string &Path) {
    const json &V = require(Obj, Key, Path);
    if (!V.is_string() || V.get<std::string>().empty())
      fail(Path + "/" + Key, "must be a non-empty string");
    return V.get<std::string>();
  }

  int64_t intField(const json &Obj, const std::string &Key,
                   const std::string &Path, int64_t Min, int64_t Max) {
    const json &V = require(Obj, Key, Path);
    std::string At = Path + "/" + Key;
    if (!V.is_number_integer())
      fail(At, "must be an integer");
    int64_t N = V.get<int64_t>();
    if (N < Min || N > Max)
      fail(At, "must be between " + std::to_string(Min) + " and " +
                   std::to_string(Max) + ", got " + std::to_string(N));
    return N;
  }

  void optionalInt(const json &Obj, const std::string &Key,
                   const std::string &Path, int64_t Min, int64_t Max) {
    if (Obj.contains(Key))
      intField(Obj, Key, Path, Min, Max);
  }

  void optionalNumber(const json &Obj, const std::string &Key,
                      const std::string &Path) {
    if (Obj.contains(Key) && !Obj.at(Key).is_number())
      fail(Path + "/" + Key, "must be a number");
  }

  void optionalBool(const json &Obj, const std::string &Key,
                    const std::string &Path) {
    if (Obj.contains(Key) && !Obj.at(Key).is_boolean())
      fail(Path + "/" + Key, "must be true or false");
  }

  void optionalDevice(const json &Obj, const std::string &Path) {
    if (!Obj.contains("device"))
      return;
    const json &V = Obj.at("device");
    if (!V.is_string() || !isValidDeviceSpec(V.get<std::string>()))
      fail(Path + "/device", "invalid device " + V.dump() +
                                 " (expected \"cpu\", \"accel\" or a "
                                 "lower-case device such as \"cuda:0\")");
  }

  void optionalDtype(const json &Obj, const std::string &Path) {
    if (!Obj.contains("dtype"))
      return;
    const json &V = Obj.at("dtype");
    if (!V.is_string() || !dtypes().count(V.get<std::string>()))
      fail(Path + "/dtype", "unknown dtype " + V.dump() + " (known: " +
                                joinNames(dtypes()) + ")");
  }

  // --- value references ---------------------------------------------------

  Kind reference(const json &V, const std::string &Path) {
    if (!V.is_string())
      fail(Path, "must name a value defined by an earlier step");
    auto It = Symbols.find(V.get<std::string>());
    if (It == Symbols.end())
      fail(Path, "'" + V.get<std::string>() +
                     "' is not defined by an earlier step");
    return It->second;
  }

  void tensorRef(const json &V, const std::string &Path) {
    Kind K = reference(V, Path);
    if (K != Kind::Tensor)
      fail(Path, "'" + V.get<std::string>() + "' is " + kindName(K) +
                     ", expected a tensor");
  }

  Kind moduleRef(const json &V, const std::string &Path) {
    Kind K = reference(V, Path);
    if (!isModule(K))
      fail(Path, "'" + V.get<std::string>() + "' is " + kindName(K) +
                     ", expected a module");
    return K;
  }

  void tensorOrNumber(const json &V, const std::string &Path) {
    if (!V.is_number())
      tensorRef(V, Path);
  }

  // Binding "name" also binds its members as "name.member"; rebinding a
  // name forgets the members of what it named before.
  void bind(const std::string &Name, Kind K) {
    auto Prefix = Name + ".";
    for (auto It = Symbols.lower_bound(Prefix);
         It != Symbols.end() && It->first.compare(0, Prefix.size(), Prefix) == 0;)
      It = Symbols.erase(It);
    Symbols[Name] = K;
  }

  void bindMembersOf(const std::string &Owner, const std::string &Member,
                     const std::string &Source) {
    Symbols[Owner + "." + Member] = Symbols.at(Source);
    std::string Prefix = Source + ".";
    std::vector<std::pair<std::string, Kind>> Nested;
    for (auto It = Symbols.lower_bound(Prefix);
         It != Symbols.end() && It->first.compare(0, Prefix.size(), Prefix) == 0;
         ++It)
      Nested.emplace_back(It->first.substr(Prefix.size()), It->second);
    for (auto &[Rest, K] : Nested)
      Symbols[Owner + "." + Member + "." + Rest] = K;
  }

  // --- plan parts ------------------------------------------------------------

  void checkHeader() {
    static const std::set<std::string> TopKeys = {
        "format", "version", "id", "check", "location",
        "description", "steps", "expect"};
    for (auto It = Plan.begin(); It != Plan.end(); ++It)
      if (!TopKeys.count(It.key()))
        fail(token(It.key()), "unknown field (known: " + joinNames(TopKeys) +
                                 ")");
    const json &Format = require(Plan, "format", "");
    if (Format != kFormatName)
      fail("/format", std::string("must be \"") + kFormatName + "\", got " +
                          Format.dump());
    const json &Version = require(Plan, "version", "");
    if (Version != kFormatVersion)
      fail("/version", "unsupported version " + Version.dump() +
                           " (this probe reads version " +
                           std::to_string(kFormatVersion) + ")");
    stringField(Plan, "id", "");
    stringField(Plan, "check", "");
    if (Plan.contains("description") && !Plan.at("description").is_string())
      fail("/description", "must be a string");
    if (Plan.contains("location"))
      checkLocation(Plan.at("location"));
  }

  void checkLocation(const json &Loc) {
    if (!Loc.is_object())
      fail("/location", "must be an object {file, line, column}");
    stringField(Loc, "file", "/location");
    optionalInt(Loc, "line", "/location", 1, INT32_MAX);
    optionalInt(Loc, "column", "/location", 1, INT32_MAX);
  }

  void checkStepsArray() {
    const json &Steps = require(Plan, "steps", "");
    if (!Steps.is_array() || Steps.empty())
      fail("/steps", "must be a non-empty array of steps");
    if (Steps.size() > kMaxSteps)
      fail("/steps", "has " + std::to_string(Steps.size()) +
                         " steps, more than the cap of " +
                         std::to_string(kMaxSteps));
  }

  void checkExpectShape() {
    const json &Expect = require(Plan, "expect", "");
    if (!Expect.is_object())
      fail("/expect", "must be an object {kind, step, ...}");
    std::string Kind = stringField(Expect, "kind", "/expect");
    if (!expectKinds().count(Kind))
      fail("/expect/kind", "unknown observable '" + Kind + "' (known: " +
                               joinNames(expectKinds()) + ")");
    int64_t LastStep = static_cast<int64_t>(Plan.at("steps").size()) - 1;
    ExpectStep = intField(Expect, "step", "/expect", 0, LastStep);
    static const std::map<std::string, std::set<std::string>> Keys = {
        {expect::DeviceAfter, {"value", "device"}},
        {expect::GradUndefined, {"value"}},
        {expect::Timing, {"min_micros"}},
        {expect::SyncCost, {"work", "iterations", "min_micros"}}};
    auto Extra = Keys.find(Kind);
    for (auto It = Expect.begin(); It != Expect.end(); ++It)
      if (It.key() != "kind" && It.key() != "step" &&
          (Extra == Keys.end() || !Extra->second.count(It.key())))
        fail("/expect" + token(It.key()), "unknown field for '" + Kind + "'");
    if (Kind == expect::DeviceAfter) {
      require(Expect, "device", "/expect");
      optionalDevice(Expect, "/expect");
    }
    if (Kind == expect::Timing || Kind == expect::SyncCost)
      optionalNumber(Expect, "min_micros", "/expect");
    if (Kind == expect::SyncCost) {
      intField(Expect, "work", "/expect", 0, LastStep);
      optionalInt(Expect, "iterations", "/expect", 1, kMaxRepeat);
    }
  }

  void checkExpectAgainstStep(const json &Step) {
    const json &Expect = Plan.at("expect");
    std::string Kind = Expect.at("kind");
    std::string Op = Step.at("op");
    if (Kind == expect::DeviceAfter || Kind == expect::GradUndefined)
      tensorRef(require(Expect, "value", "/expect"), "/expect/value");
    auto RequireOp = [&](const std::string &Wanted) {
      if (Op != Wanted)
        fail("/expect/step", "'" + Kind + "' needs step " +
                                 std::to_string(ExpectStep) + " to be a '" +
                                 Wanted + "' step, it is '" + Op + "'");
    };
    if (Kind == expect::ToCopies)
      RequireOp("move");
    else if (Kind == expect::HostPointerToDevice)
      RequireOp("data_ptr");
    else if (Kind == expect::NonLeafRejected)
      RequireOp("sgd");
    else if (Kind == expect::SyncCost) {
      if (Op != "sync" && !(Op == "move" && isMoveToCpu(Step)))
        fail("/expect/step", "'" + Kind + "' needs step " +
                                 std::to_string(ExpectStep) +
                                 " to be a 'sync' step or a move to the "
                                 "CPU, it is '" + Op + "'");
      if (Expect.at("work").get<int64_t>() >= ExpectStep)
        fail("/expect/work", "the loop's work must start before the sync "
                             "at step " + std::to_string(ExpectStep));
    }
  }

  static bool isMoveToCpu(const json &Step) {
    return Step.at("fn") == "cpu" ||
           (Step.at("fn") == "to" && Step.value("device", "") == "cpu");
  }

  // --- steps ---------------------------------------------------------------------

  void checkStep(const json &Step, const std::string &Path) {
    if (!Step.is_object())
      fail(Path, "a step must be an object with an \"op\"");
    std::string Op = stringField(Step, "op", Path);
    auto Keys = opKeys().find(Op);
    if (Keys == opKeys().end()) {
      std::set<std::string> Known;
      for (auto &[Name, Unused] : opKeys())
        Known.insert(Name);
      fail(Path + "/op", "unknown op '" + Op + "' (known: " +
                             joinNames(Known) + ")");
    }
    for (auto It = Step.begin(); It != Step.end(); ++It)
      if (It.key() != "op" && It.key() != "id" && It.key() != "repeat" &&
          !Keys->second.count(It.key()))
        fail(Path + token(It.key()), "unknown field for op '" + Op + "'");
    optionalInt(Step, "repeat", Path, 1, kMaxRepeat);
    std::string Id = checkId(Step, Path, opsNeedingId().count(Op) > 0);

    std::optional<Kind> Result = checkOp(Op, Step, Path);
    if (!Id.empty()) {
      if (!Result)
        fail(Path + "/id", "op '" + Op + "' produces no value to name");
      bind(Id, *Result);
      if (Op == "module")
        bindModuleMembers(Id, Step);
      else if (*Result == Kind::Linear || *Result == Kind::Conv2d) {
        Symbols[Id + ".weight"] = Kind::Tensor;
        if (Step.value("bias", true))
          Symbols[Id + ".bias"] = Kind::Tensor;
      }
    }
  }

  std::string checkId(const json &Step, const std::string &Path,
                      bool Required) {
    if (!Step.contains("id")) {
      if (Required)
        fail(Path, "missing required field 'id'");
      return "";
    }
    static const std::regex Ident("[A-Za-z_][A-Za-z0-9_]*");
    const json &V = Step.at("id");
    if (!V.is_string() || !std::regex_match(V.get<std::string>(), Ident))
      fail(Path + "/id", "must be an identifier ([A-Za-z_][A-Za-z0-9_]*), "
                         "got " + V.dump());
    return V.get<std::string>();
  }

  std::optional<Kind> checkOp(const std::string &Op, const json &Step,
                              const std::string &Path) {
    if (Op == "factory")
      return checkFactory(Step, Path);
    if (Op == "move")
      return checkMove(Step, Path);
    if (Op == "call")
      return checkCall(Step, Path);
    if (Op == "linear") {
      intField(Step, "in_features", Path, 1, kMaxElements);
      intField(Step, "out_features", Path, 1, kMaxElements);
      optionalBool(Step, "bias", Path);
      return Kind::Linear;
    }
    if (Op == "conv2d") {
      intField(Step, "in_channels", Path, 1, 4096);
      intField(Step, "out_channels", Path, 1, 4096);
      intField(Step, "kernel_size", Path, 1, 64);
      optionalInt(Step, "stride", Path, 1, 64);
      optionalInt(Step, "padding", Path, 0, 64);
      optionalBool(Step, "bias", Path);
      return Kind::Conv2d;
    }
    if (Op == "module")
      return checkModule(Step, Path);
    if (Op == "module_to") {
      moduleRef(require(Step, "module", Path), Path + "/module");
      checkDeviceOrDtype(Step, Path);
      return std::nullopt;
    }
    if (Op == "forward")
      return checkForward(Step, Path);
    if (Op == "backward" || Op == "data_ptr") {
      tensorRef(require(Step, "self", Path), Path + "/self");
      return std::nullopt;
    }
    if (Op == "sgd")
      return checkSgd(Step, Path);
    if (Op == "sync")
      return checkSync(Step, Path);
    if (Op == "zero_grad" || Op == "optimizer_step") {
      Kind K = reference(require(Step, "optimizer", Path), Path + "/optimizer");
      if (K != Kind::Optimizer)
        fail(Path + "/optimizer", "expected an optimizer");
      return std::nullopt;
    }
    return checkSaveLoad(Step, Path);
  }

  void checkDeviceOrDtype(const json &Step, const std::string &Path) {
    if (!Step.contains("device") && !Step.contains("dtype"))
      fail(Path, "needs a 'device', a 'dtype' or both");
    optionalDevice(Step, Path);
    optionalDtype(Step, Path);
  }

  int64_t checkSizes(const json &Step, const std::string &Path) {
    const json &Sizes = require(Step, "sizes", Path);
    std::string At = Path + "/sizes";
    if (!Sizes.is_array() || static_cast<int64_t>(Sizes.size()) > kMaxDims)
      fail(At, "must be an array of at most " + std::to_string(kMaxDims) +
                   " sizes ([] is a 0-dim tensor)");
    int64_t Elements = 1;
    for (size_t I = 0; I < Sizes.size(); ++I) {
      if (!Sizes[I].is_number_integer() || Sizes[I].get<int64_t>() < 0)
        fail(At + "/" + std::to_string(I), "must be a non-negative integer");
      int64_t Size = Sizes[I].get<int64_t>();
      if (Size > kMaxElements || Elements * Size > kMaxElements)
        fail(At, "more than " + std::to_string(kMaxElements) +
                     " elements (the per-tensor cap)");
      Elements *= Size;
    }
    return Elements;
  }

  std::optional<Kind> checkFactory(const json &Step, const std::string &Path) {
    std::string Fn = stringField(Step, "fn", Path);
    if (!factoryFns().count(Fn))
      fail(Path + "/fn", "unknown factory '" + Fn + "' (known: " +
                             joinNames(factoryFns()) + ")");
    bool IsLike = Fn.size() > 5 && Fn.compare(Fn.size() - 5, 5, "_like") == 0;
    int64_t Elements = 0;
    if (IsLike) {
      tensorRef(require(Step, "like", Path), Path + "/like");
    } else if (Fn == "tensor") {
      Elements = checkTensorData(Step, Path);
    } else if (Fn == "arange") {
      const json &End = require(Step, "end", Path);
      if (!End.is_number())
        fail(Path + "/end", "must be a number");
      optionalNumber(Step, "start", Path);
      optionalNumber(Step, "step", Path);
    } else {
      Elements = checkSizes(Step, Path);
    }
    for (const char *Key : {"sizes", "data", "start", "end", "step", "like"}) {
      bool Allowed = (std::string(Key) == "sizes" && !IsLike &&
                      Fn != "tensor" && Fn != "arange") ||
                     (std::string(Key) == "data" && Fn == "tensor") ||
                     (std::string(Key) == "like" && IsLike) ||
                     (Fn == "arange" && (std::string(Key) == "start" ||
                                         std::string(Key) == "end" ||
                                         std::string(Key) == "step"));
      if (!Allowed && Step.contains(Key))
        fail(Path + "/" + Key, "not a field of factory '" + Fn + "'");
    }
    bool IsFull = Fn == "full" || Fn == "full_like";
    if (IsFull && !require(Step, "value", Path).is_number())
      fail(Path + "/value", "must be a number");
    if (!IsFull && Step.contains("value"))
      fail(Path + "/value", "only 'full' and 'full_like' take a value");
    optionalDtype(Step, Path);
    optionalDevice(Step, Path);
    optionalBool(Step, "requires_grad", Path);
    PlanElements += Elements;
    if (PlanElements > kMaxPlanElements)
      fail(Path, "the plan's tensors exceed " +
                     std::to_string(kMaxPlanElements) + " elements in all");
    return Kind::Tensor;
  }

  int64_t checkTensorData(const json &Step, const std::string &Path) {
    const json &Data = require(Step, "data", Path);
    if (Data.is_number())
      return 1; // torch::tensor(0.5): a 0-dim tensor
    if (!Data.is_array() || Data.empty() || Data.size() > 4096)
      fail(Path + "/data", "must be a number (0-dim) or an array of 1 to "
                           "4096 numbers (1-dim)");
    for (size_t I = 0; I < Data.size(); ++I)
      if (!Data[I].is_number())
        fail(Path + "/data/" + std::to_string(I), "must be a number");
    return static_cast<int64_t>(Data.size());
  }

  std::optional<Kind> checkMove(const json &Step, const std::string &Path) {
    std::string Fn = stringField(Step, "fn", Path);
    tensorRef(require(Step, "self", Path), Path + "/self");
    if (Fn == "to") {
      checkDeviceOrDtype(Step, Path);
    } else if (Fn == "cuda" || Fn == "cpu") {
      for (const char *Key : {"device", "dtype"})
        if (Step.contains(Key))
          fail(Path + "/" + Key, "'" + Fn + "' takes no " + Key);
    } else {
      fail(Path + "/fn", "unknown move '" + Fn + "' (known: cpu, cuda, to)");
    }
    return Kind::Tensor;
  }

  std::optional<Kind> checkCall(const json &Step, const std::string &Path) {
    std::string Fn = stringField(Step, "fn", Path);
    auto Sig = callSignatures().find(Fn);
    if (Sig == callSignatures().end()) {
      std::set<std::string> Known;
      for (auto &[Name, Unused] : callSignatures())
        Known.insert(Name);
      fail(Path + "/fn", "unknown function '" + Fn + "' (known: " +
                             joinNames(Known) + ")");
    }
    const json &Args = require(Step, "args", Path);
    std::string At = Path + "/args";
    if (!Args.is_array())
      fail(At, "must be an array");
    const std::string &Kinds = Sig->second;
    if (Kinds == "*") {
      if (Args.empty() || Args.size() > 64)
        fail(At, "'" + Fn + "' takes 1 to 64 tensors");
    } else if (Args.size() != Kinds.size()) {
      fail(At, "'" + Fn + "' takes " + std::to_string(Kinds.size()) +
                   " argument(s), got " + std::to_string(Args.size()));
    }
    for (size_t I = 0; I < Args.size(); ++I) {
      std::string ArgPath = At + "/" + std::to_string(I);
      if (Kinds != "*" && Kinds[I] == 'S')
        tensorOrNumber(Args[I], ArgPath);
      else
        tensorRef(Args[I], ArgPath);
    }
    if (Fn == "clamp" && Args[1].is_number() != Args[2].is_number())
      fail(At, "clamp's bounds must be both tensors or both numbers");
    checkCallOptions(Fn, Step, Path);
    return Kind::Tensor;
  }

  void checkCallOptions(const std::string &Fn, const json &Step,
                        const std::string &Path) {
    if (Step.contains("dim") && !callTakesDim(Fn))
      fail(Path + "/dim", "'" + Fn + "' takes no dim");
    optionalInt(Step, "dim", Path, -kMaxDims, kMaxDims);
    if (Step.contains("weight")) {
      if (!callTakesWeight(Fn))
        fail(Path + "/weight", "'" + Fn + "' takes no weight");
      tensorRef(Step.at("weight"), Path + "/weight");
    }
    if (Step.contains("pos_weight")) {
      if (!callTakesPosWeight(Fn))
        fail(Path + "/pos_weight", "'" + Fn + "' takes no pos_weight");
      tensorRef(Step.at("pos_weight"), Path + "/pos_weight");
    }
  }

  std::optional<Kind> checkModule(const json &Step, const std::string &Path) {
    std::set<std::string> Seen;
    for (const char *Group : {"parameters", "buffers", "submodules",
                              "unregistered"}) {
      if (!Step.contains(Group))
        continue;
      const json &Members = Step.at(Group);
      std::string At = Path + "/" + Group;
      if (!Members.is_object())
        fail(At, "must be an object {member: value}");
      for (auto It = Members.begin(); It != Members.end(); ++It) {
        std::string MemberPath = At + token(It.key());
        static const std::regex Ident("[A-Za-z_][A-Za-z0-9_]*");
        if (!std::regex_match(It.key(), Ident))
          fail(MemberPath, "member names must be identifiers");
        if (!Seen.insert(It.key()).second)
          fail(MemberPath, "member '" + It.key() + "' is declared twice");
        std::string G = Group;
        if (G == "submodules")
          moduleRef(It.value(), MemberPath);
        else if (G == "unregistered")
          reference(It.value(), MemberPath);
        else
          tensorRef(It.value(), MemberPath);
      }
    }
    return Kind::Module;
  }

  void bindModuleMembers(const std::string &Id, const json &Step) {
    for (const char *Group : {"parameters", "buffers", "submodules",
                              "unregistered"})
      if (Step.contains(Group))
        for (auto It = Step.at(Group).begin(); It != Step.at(Group).end();
             ++It)
          bindMembersOf(Id, It.key(), It.value().get<std::string>());
  }

  std::optional<Kind> checkForward(const json &Step, const std::string &Path) {
    Kind K = moduleRef(require(Step, "module", Path), Path + "/module");
    if (K == Kind::Module)
      fail(Path + "/module", "forward runs only 'linear' and 'conv2d' "
                             "modules (the probe never runs user code)");
    const json &Args = require(Step, "args", Path);
    if (!Args.is_array() || Args.size() != 1)
      fail(Path + "/args", "must be an array with the one input tensor");
    tensorRef(Args[0], Path + "/args/0");
    return Kind::Tensor;
  }

  std::optional<Kind> checkSgd(const json &Step, const std::string &Path) {
    const json &Params = require(Step, "params", Path);
    if (!Params.is_array() || Params.empty())
      fail(Path + "/params", "must be a non-empty array of tensors and "
                             "modules");
    for (size_t I = 0; I < Params.size(); ++I) {
      std::string At = Path + "/params/" + std::to_string(I);
      Kind K = reference(Params[I], At);
      if (K == Kind::Optimizer)
        fail(At, "expected a tensor or a module");
    }
    optionalNumber(Step, "lr", Path);
    optionalNumber(Step, "momentum", Path);
    return Kind::Optimizer;
  }

  std::optional<Kind> checkSync(const json &Step, const std::string &Path) {
    static const std::set<std::string> Fns = {"item", "synchronize", "print",
                                              "nonzero"};
    std::string Fn = stringField(Step, "fn", Path);
    if (!Fns.count(Fn))
      fail(Path + "/fn", "unknown sync '" + Fn + "' (known: " +
                             joinNames(Fns) + ")");
    if (Fn == "synchronize") {
      if (Step.contains("self"))
        fail(Path + "/self", "'synchronize' takes no tensor");
    } else {
      tensorRef(require(Step, "self", Path), Path + "/self");
    }
    if (Fn != "nonzero" && Step.contains("id"))
      fail(Path + "/id", "sync '" + Fn + "' produces no tensor to name");
    return Kind::Tensor;
  }

  std::optional<Kind> checkSaveLoad(const json &Step, const std::string &Path) {
    bool HasSelf = Step.contains("self");
    if (HasSelf == Step.contains("module"))
      fail(Path, "needs exactly one of 'self' (a tensor) or 'module'");
    optionalDevice(Step, Path);
    if (!HasSelf) {
      if (Step.contains("id"))
        fail(Path + "/id", "a module is loaded back in place; it has no id");
      moduleRef(Step.at("module"), Path + "/module");
      return std::nullopt;
    }
    tensorRef(Step.at("self"), Path + "/self");
    return Kind::Tensor;
  }
};

} // namespace

std::optional<ValidationError> validate(const json &Plan) {
  try {
    Validator(Plan).run();
  } catch (const Failure &F) {
    return ValidationError{F.Path, F.Problem};
  }
  return std::nullopt;
}

json loadPlanFile(const std::string &FileName) {
  std::ifstream In(FileName);
  if (!In)
    throw PlanError(FileName + ": cannot open file");
  json Plan;
  try {
    Plan = json::parse(In);
  } catch (const json::exception &E) {
    // A syntax error, or a number out of range ("1e309" is out_of_range.406,
    // not a parse_error). nlohmann's message is one line:
    // "[json.exception.parse_error.101] ...".
    throw PlanError(FileName + ": malformed JSON: " + E.what());
  }
  if (auto Error = validate(Plan))
    throw PlanError(FileName + ": " + Error->str());
  return Plan;
}

} // namespace torch_tidy::plan
