// A stand-in for <torch/torch.h>: the few LibTorch declarations that the
// stand-in fixtures (test/checks/*.standin.cpp) use, under LibTorch's own
// names and namespaces, so that the checks recognise them as they do the real
// ones. Declarations only: fixtures are parsed, never linked. It parses in
// milliseconds, where the real headers take seconds: a fixture that needs no
// real overload set isolates one construct of the analysis.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace c10 {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
using DeviceIndex = int8_t;

struct Device {
  Device(DeviceType type, DeviceIndex index = -1);
  Device(const std::string &spec);
  DeviceType type() const;
  bool is_cuda() const;
  std::string str() const;
};

std::string DeviceTypeName(DeviceType d, bool lower_case = false);

namespace cuda {
void set_device(DeviceIndex device);
} // namespace cuda

template <typename T> class ArrayRef {
public:
  ArrayRef(std::initializer_list<T> values);
  ArrayRef(const std::vector<T> &values);
};
using IntArrayRef = ArrayRef<int64_t>;

enum class ScalarType : int8_t { Float, Half, Long };

struct TensorOptions {
  TensorOptions();
  TensorOptions(Device device);
  TensorOptions(DeviceType type);
  TensorOptions(ScalarType dtype);
  TensorOptions device(Device device) const;
  TensorOptions requires_grad(bool value = true) const;
};

namespace detail {
[[noreturn]] void checkFailed(const char *file, int line, const char *what);
} // namespace detail

} // namespace c10

// LibTorch's checks expand to `do { ... } while (0)`, whose back edge clang's
// CFG prunes.
#define TORCH_CHECK(cond, ...)                                                 \
  do {                                                                         \
    if (!(cond))                                                               \
      ::c10::detail::checkFailed(__FILE__, __LINE__, #cond);                   \
  } while (0)
#define AT_ASSERT(cond) TORCH_CHECK(cond, "")

namespace at {

using c10::ArrayRef;
using c10::Device;
using c10::IntArrayRef;
using c10::TensorOptions;

class Tensor {
public:
  Tensor();
  Tensor to(TensorOptions options = {}, bool non_blocking = false,
            bool copy = false) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor clone() const;
  Tensor mean() const;
  Tensor sum() const;
  Tensor mm(const Tensor &other) const;
  int64_t dim() const;
  int64_t size(int64_t dim) const;
  Device device() const;
  TensorOptions options() const;
  const Tensor &requires_grad_(bool value = true) const;
  template <typename T> T *data_ptr() const;
  template <typename T> T item() const;
  Tensor &operator+=(const Tensor &other);
};

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});
Tensor eye(int64_t n, TensorOptions options = {});
Tensor zeros_like(const Tensor &self, TensorOptions options = {});
Tensor mse_loss(const Tensor &self, const Tensor &target);
Tensor cat(ArrayRef<Tensor> tensors, int64_t dim = 0);

} // namespace at

namespace torch {

using at::Tensor;
using c10::Device;
using c10::DeviceType;
using c10::kCPU;
using c10::kCUDA;
using at::cat;
using at::eye;
using at::mse_loss;
using at::ones;
using at::randn;
using at::zeros;
using at::zeros_like;
constexpr c10::ScalarType kHalf = c10::ScalarType::Half;

inline c10::TensorOptions device(c10::Device device) {
  return c10::TensorOptions().device(device);
}

namespace nn {
class Module {
public:
  virtual ~Module();
  void to(c10::Device device, bool non_blocking = false);
  std::vector<at::Tensor> parameters(bool recurse = true) const;
  template <typename M> std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module);
  at::Tensor &register_buffer(std::string name, at::Tensor tensor);
};

struct LinearImpl : Module {
  LinearImpl(int64_t in, int64_t out);
  at::Tensor forward(const at::Tensor &input);
};
using Linear = std::shared_ptr<LinearImpl>;
} // namespace nn

namespace cuda {
bool is_available();
void synchronize(int64_t device_index = -1);
} // namespace cuda

} // namespace torch
