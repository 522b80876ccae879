//===--- PlanBuilder.cpp - Builds the replay plan of a finding ------------===//

#include "PlanBuilder.h"
#include "runtime/Plan.h"

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

std::string PlanBuilder::factory(const TensorSpec &Tensor) {
  nlohmann::json Step = {{"op", "factory"},
                         {"fn", Tensor.Fill},
                         {"sizes", Tensor.Sizes},
                         {"device", Tensor.Device}};
  if (Tensor.Dtype != "float32")
    Step["dtype"] = Tensor.Dtype;
  if (Tensor.RequiresGrad)
    Step["requires_grad"] = true;
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

std::string PlanBuilder::call(llvm::StringRef Fn, nlohmann::json Args) {
  return add({{"op", "call"}, {"fn", Fn.str()}, {"args", std::move(Args)}});
}

std::string PlanBuilder::linear(int64_t In, int64_t Out) {
  return add({{"op", "linear"}, {"in_features", In}, {"out_features", Out}});
}

std::string PlanBuilder::conv2d(int64_t InChannels, int64_t OutChannels) {
  return add({{"op", "conv2d"},
              {"in_channels", InChannels},
              {"out_channels", OutChannels},
              {"kernel_size", 1}});
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

void PlanBuilder::sync(llvm::StringRef Fn, const std::string &Self) {
  nlohmann::json Step = {{"op", "sync"}, {"fn", Fn.str()}};
  if (!Self.empty())
    Step["self"] = Self;
  add(std::move(Step), false);
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
  return {{"format", ::torch_tidy::plan::kFormatName},
          {"version", ::torch_tidy::plan::kFormatVersion},
          {"check", Check.str()},
          {"description", Description.str()},
          {"steps", Steps},
          {"expect", Expect}};
}

} // namespace clang::tidy::torch_tidy::plans
