//===--- ReplayPlan.cpp - The replay plan a finding carries ---------------===//

#include "ReplayPlan.h"
#include "api/TorchApi.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::torch_tidy::plans {

std::string PlanBuilder::add(nlohmann::json Step, bool Named) {
  if (!Named) {
    Steps.push_back(std::move(Step));
    return "";
  }
  std::string Id = "v" + std::to_string(Counter++);
  Step["id"] = Id;
  Steps.push_back(std::move(Step));
  return Id;
}

std::string PlanBuilder::factory(llvm::StringRef Device,
                                 std::vector<int64_t> Sizes, bool RequiresGrad,
                                 llvm::StringRef Dtype) {
  nlohmann::json Step = {{"op", "factory"},
                         {"fn", Dtype == "int64" ? "zeros" : "randn"},
                         {"sizes", Sizes},
                         {"device", Device.str()}};
  if (RequiresGrad)
    Step["requires_grad"] = true;
  if (!Dtype.empty())
    Step["dtype"] = Dtype.str();
  return add(std::move(Step));
}

std::string PlanBuilder::move(const std::string &Self, llvm::StringRef Fn,
                              llvm::StringRef Device, bool Keep,
                              unsigned Repeat) {
  nlohmann::json Step = {{"op", "move"}, {"fn", Fn.str()}, {"self", Self}};
  if (Fn == "to")
    Step["device"] = Device.str();
  if (Repeat > 1)
    Step["repeat"] = Repeat;
  return add(std::move(Step), Keep);
}

std::string PlanBuilder::call(llvm::StringRef Fn,
                              const std::vector<std::string> &Args) {
  return add({{"op", "call"}, {"fn", Fn.str()}, {"args", Args}});
}

std::string PlanBuilder::linear(int64_t In, int64_t Out) {
  return add({{"op", "linear"}, {"in_features", In}, {"out_features", Out}});
}

void PlanBuilder::moduleTo(const std::string &Module, llvm::StringRef Device) {
  add({{"op", "module_to"}, {"module", Module}, {"device", Device.str()}},
      false);
}

std::string PlanBuilder::forward(const std::string &Module,
                                 const std::string &Input) {
  return add({{"op", "forward"}, {"module", Module}, {"args", {Input}}});
}

void PlanBuilder::dataPtr(const std::string &Self) {
  add({{"op", "data_ptr"}, {"self", Self}}, false);
}

std::string PlanBuilder::sgd(const std::vector<std::string> &Params) {
  return add({{"op", "sgd"}, {"params", Params}});
}

std::string PlanBuilder::module(const nlohmann::json &Parameters,
                                const nlohmann::json &Unregistered) {
  return add({{"op", "module"},
              {"parameters", Parameters},
              {"unregistered", Unregistered}});
}

nlohmann::json PlanBuilder::finish(llvm::StringRef Check,
                                   llvm::StringRef Description) const {
  return {{"format", "torch-tidy-plan"},
          {"version", 1},
          {"check", Check.str()},
          {"description", Description.str()},
          {"steps", Steps},
          {"expect", Expect}};
}

std::vector<int64_t> literalSizes(const Expr *Factory,
                                  std::vector<int64_t> Fallback) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Factory);
  if (!Call || Call->getNumArgs() == 0)
    return Fallback;
  if (api::isZeroDimFactoryCall(*Call))
    return {};
  const Expr *First = Call->getArg(0)->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(First)) {
    if (Construct->getNumArgs() == 0)
      return Fallback;
    First = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(First))
    First = StdList->getSubExpr()->IgnoreImplicit();
  const auto *List = dyn_cast<InitListExpr>(First);
  if (!List || List->getNumInits() == 0 || List->getNumInits() > 8)
    return Fallback;
  std::vector<int64_t> Sizes;
  int64_t Elements = 1;
  for (const Expr *Init : List->inits()) {
    const auto *Literal = dyn_cast<IntegerLiteral>(Init->IgnoreImplicit());
    if (!Literal)
      return Fallback;
    int64_t Size = Literal->getValue().getSExtValue();
    // Keep plans small: the probe caps elements, and the bug does not depend
    // on the size.
    Elements *= std::max<int64_t>(Size, 1);
    if (Size < 0 || Elements > (1 << 20))
      return Fallback;
    Sizes.push_back(Size);
  }
  return Sizes;
}

std::string planFunction(const Expr *Sink) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Sink);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return "add";
  std::string Name = Callee->getNameAsString();
  static const std::pair<const char *, const char *> Operators[] = {
      {"operator+=", "add_"}, {"operator-=", "sub_"}, {"operator*=", "mul_"},
      {"operator/=", "div_"}, {"operator+", "add"},   {"operator-", "sub"},
      {"operator*", "mul"},   {"operator/", "div"},   {"operator==", "eq"},
      {"operator!=", "ne"},   {"operator<", "lt"},    {"operator<=", "le"},
      {"operator>", "gt"},    {"operator>=", "ge"}};
  for (const auto &[Op, Fn] : Operators)
    if (Name == Op)
      return Fn;
  if (Name == "operator()") {
    // A loss module: CrossEntropyLossImpl → cross_entropy.
    const CXXRecordDecl *Module =
        api::heldModule(Call->getArg(0)->getType());
    llvm::StringRef Class = Module ? Module->getName() : "";
    if (Class.starts_with("CrossEntropy"))
      return "cross_entropy";
    if (Class.starts_with("NLL"))
      return "nll_loss";
    if (Class.starts_with("L1"))
      return "l1_loss";
    if (Class.starts_with("BCEWithLogits"))
      return "binary_cross_entropy_with_logits";
    return "mse_loss";
  }
  static const char *const Supported[] = {
      "add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "pow",
      "minimum", "maximum", "add_", "sub_", "mul_", "div_", "mm", "matmul",
      "cat", "stack", "mse_loss", "l1_loss", "smooth_l1_loss",
      "cross_entropy", "nll_loss", "binary_cross_entropy_with_logits"};
  for (const char *Fn : Supported)
    if (Name == Fn)
      return Name;
  return "add";
}

namespace {
std::vector<RecordedPlan> &recorded() {
  // clang-tidy analyses one translation unit per thread at a time.
  thread_local std::vector<RecordedPlan> Plans;
  return Plans;
}
} // namespace

void recordPlan(llvm::StringRef Check, SourceLocation Loc,
                const SourceManager &SM, nlohmann::json Plan) {
  SourceLocation Spelling = SM.getFileLoc(Loc);
  auto File = SM.getFileEntryRefForID(SM.getFileID(Spelling));
  if (!File)
    return;
  llvm::SmallString<256> Path(File->getName());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  recorded().push_back({std::string(Path), SM.getFileOffset(Spelling),
                        Check.str(), std::move(Plan)});
}

std::vector<RecordedPlan> takeRecordedPlans() {
  std::vector<RecordedPlan> Plans = std::move(recorded());
  recorded().clear();
  return Plans;
}

} // namespace clang::tidy::torch_tidy::plans
