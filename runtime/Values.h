//===--- Values.h - The interpreter's named values --------------*- C++ -*-===//
//
// Internal to runtime/. Modules and optimizers are held through forward
// declarations so that only ModuleOps.cpp pays for LibTorch's nn headers.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_VALUES_H
#define TORCH_TIDY_RUNTIME_VALUES_H

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace torch {
namespace nn {
class Module;
} // namespace nn
namespace optim {
class Optimizer;
} // namespace optim
} // namespace torch

namespace torch_tidy::runtime {

/// A module of the plan. Unregistered members live beside the module, as
/// plain C++ members do: Module::to and parameters() never see them.
struct ModuleValue {
  std::shared_ptr<torch::nn::Module> Module;
  /// Set for the built-in modules (linear, conv2d) only.
  std::function<at::Tensor(const at::Tensor &)> Forward;
  std::map<std::string, at::Tensor> UnregisteredTensors;
  /// Registered and unregistered submodules, by member name.
  std::map<std::string, std::shared_ptr<ModuleValue>> Children;
};

using ModulePtr = std::shared_ptr<ModuleValue>;
using OptimizerPtr = std::shared_ptr<torch::optim::Optimizer>;
using Value = std::variant<at::Tensor, ModulePtr, OptimizerPtr>;

// Module, optimizer and serialization steps (ModuleOps.cpp).
ModulePtr makeLinear(const nlohmann::json &Step);
ModulePtr makeConv2d(const nlohmann::json &Step);
/// A plain Module holding the given members.
ModulePtr makeModule(const std::map<std::string, at::Tensor> &Parameters,
                     const std::map<std::string, at::Tensor> &Buffers,
                     const std::map<std::string, ModulePtr> &Submodules,
                     const std::map<std::string, Value> &Unregistered);
/// Module::to with a device, a dtype or both.
void moduleTo(ModuleValue &M, const std::optional<at::Device> &Device,
              const std::optional<at::ScalarType> &Dtype);
/// The registered or unregistered member \p Name (no dots) of \p M.
Value memberOf(const ModuleValue &M, const std::string &Name);
std::vector<at::Tensor> parametersOf(const ModuleValue &M);
OptimizerPtr makeSgd(const std::vector<at::Tensor> &Params, double Lr,
                     double Momentum);
void optimizerStep(torch::optim::Optimizer &Opt);
void zeroGrad(torch::optim::Optimizer &Opt);
/// torch::save then torch::load through a temporary file; \p Device is the
/// optional device argument of torch::load.
at::Tensor saveLoadTensor(const at::Tensor &T,
                          const std::optional<at::Device> &Device);
void saveLoadModule(ModuleValue &M, const std::optional<at::Device> &Device);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_VALUES_H
