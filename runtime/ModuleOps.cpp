//===--- ModuleOps.cpp - Module, optimizer and serialization steps --------===//
//
// The only runtime file that includes LibTorch's nn, optim and serialize
// headers (each costs seconds of compile time).
//
//===----------------------------------------------------------------------===//

#include "runtime/Values.h"

#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <torch/serialize.h>

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace torch_tidy::runtime {

namespace {

/// A file in $TMPDIR (or /tmp) that exists for the object's lifetime.
class TemporaryFile {
public:
  TemporaryFile() {
    const char *Dir = std::getenv("TMPDIR");
    Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/torch-tidy-XXXXXX";
    int Fd = mkstemp(Path.data());
    if (Fd < 0)
      throw std::runtime_error("cannot create a temporary file in " + Path);
    close(Fd);
  }
  ~TemporaryFile() { unlink(Path.c_str()); }
  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

} // namespace

ModulePtr makeLinear(const nlohmann::json &Step) {
  torch::nn::Linear Linear(
      torch::nn::LinearOptions(Step.at("in_features"), Step.at("out_features"))
          .bias(Step.value("bias", true)));
  auto M = std::make_shared<ModuleValue>();
  M->Module = Linear.ptr();
  M->Forward = [Impl = Linear.ptr()](const at::Tensor &X) {
    return Impl->forward(X);
  };
  return M;
}

ModulePtr makeConv2d(const nlohmann::json &Step) {
  int64_t Stride = Step.value("stride", 1);
  int64_t Padding = Step.value("padding", 0);
  torch::nn::Conv2d Conv(
      torch::nn::Conv2dOptions(Step.at("in_channels"), Step.at("out_channels"),
                               Step.at("kernel_size").get<int64_t>())
          .stride(Stride)
          .padding(Padding)
          .bias(Step.value("bias", true)));
  auto M = std::make_shared<ModuleValue>();
  M->Module = Conv.ptr();
  M->Forward = [Impl = Conv.ptr()](const at::Tensor &X) {
    return Impl->forward(X);
  };
  return M;
}

ModulePtr makeModule(const std::map<std::string, at::Tensor> &Parameters,
                     const std::map<std::string, at::Tensor> &Buffers,
                     const std::map<std::string, ModulePtr> &Submodules,
                     const std::map<std::string, Value> &Unregistered) {
  auto M = std::make_shared<ModuleValue>();
  M->Module = std::make_shared<torch::nn::Module>();
  // Registration keeps the tensor itself (no copy): Module::to later moves
  // it in place, so every other name for it follows the move.
  for (const auto &[Name, Tensor] : Parameters)
    M->Module->register_parameter(Name, Tensor, Tensor.requires_grad());
  for (const auto &[Name, Tensor] : Buffers)
    M->Module->register_buffer(Name, Tensor);
  for (const auto &[Name, Child] : Submodules) {
    M->Module->register_module(Name, Child->Module);
    M->Children[Name] = Child;
  }
  for (const auto &[Name, V] : Unregistered) {
    if (const auto *Tensor = std::get_if<at::Tensor>(&V))
      M->UnregisteredTensors[Name] = *Tensor;
    else
      M->Children[Name] = std::get<ModulePtr>(V);
  }
  return M;
}

void moduleTo(ModuleValue &M, const std::optional<at::Device> &Device,
              const std::optional<at::ScalarType> &Dtype) {
  if (Device && Dtype)
    M.Module->to(*Device, *Dtype);
  else if (Device)
    M.Module->to(*Device);
  else
    M.Module->to(*Dtype);
}

Value memberOf(const ModuleValue &M, const std::string &Name) {
  // named_parameters() and named_buffers() return their dictionaries by
  // value: they must outlive the pointer find() returns into them (ASan
  // found a read of a destroyed temporary here).
  auto Parameters = M.Module->named_parameters(false);
  if (const at::Tensor *P = Parameters.find(Name))
    return *P;
  auto Buffers = M.Module->named_buffers(false);
  if (const at::Tensor *B = Buffers.find(Name))
    return *B;
  if (auto It = M.UnregisteredTensors.find(Name);
      It != M.UnregisteredTensors.end())
    return It->second;
  if (auto It = M.Children.find(Name); It != M.Children.end())
    return It->second;
  throw std::runtime_error("the module has no member '" + Name + "'");
}

std::vector<at::Tensor> parametersOf(const ModuleValue &M) {
  return M.Module->parameters();
}

OptimizerPtr makeSgd(const std::vector<at::Tensor> &Params, double Lr,
                     double Momentum) {
  return std::make_shared<torch::optim::SGD>(
      Params, torch::optim::SGDOptions(Lr).momentum(Momentum));
}

void optimizerStep(torch::optim::Optimizer &Opt) { Opt.step(); }

void zeroGrad(torch::optim::Optimizer &Opt) { Opt.zero_grad(); }

at::Tensor saveLoadTensor(const at::Tensor &T,
                          const std::optional<at::Device> &Device) {
  TemporaryFile File;
  torch::save(T, File.path());
  at::Tensor Loaded;
  if (Device)
    torch::load(Loaded, File.path(), *Device);
  else
    torch::load(Loaded, File.path());
  return Loaded;
}

void saveLoadModule(ModuleValue &M, const std::optional<at::Device> &Device) {
  TemporaryFile File;
  torch::save(M.Module, File.path());
  if (Device)
    torch::load(M.Module, File.path(), *Device);
  else
    torch::load(M.Module, File.path());
}

} // namespace torch_tidy::runtime
