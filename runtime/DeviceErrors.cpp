//===--- DeviceErrors.cpp - Recognising LibTorch's device errors ----------===//

#include "runtime/DeviceErrors.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace torch_tidy::runtime {

namespace {

bool contains(const std::string &Haystack, std::string_view Needle) {
  return Haystack.find(Needle) != std::string::npos;
}

/// The text between "<Opener>" and the next ')' in \p Message, or "".
std::string parenthesizedAfter(const std::string &Message,
                               std::string_view Opener) {
  size_t Start = Message.find(Opener);
  if (Start == std::string::npos)
    return "";
  Start += Opener.size();
  size_t End = Message.find(')', Start);
  return End == std::string::npos ? "" : Message.substr(Start, End - Start);
}

/// "CUDAFloatType", "torch.cuda.FloatTensor", "MetaFloatType"...: not CPU.
bool namesAccelerator(const std::string &TypeName) {
  static constexpr std::array<std::string_view, 10> Accelerators = {
      "CUDA", "cuda", "Meta", "meta", "MPS", "mps", "XPU", "xpu", "HIP", "hip"};
  return std::any_of(Accelerators.begin(), Accelerators.end(),
                     [&](std::string_view A) { return contains(TypeName, A); });
}

} // namespace

bool isDeviceMismatchMessage(const std::string &Message) {
  // Each entry is a fragment of one wording; comments say where it comes from.
  static constexpr std::array<std::string_view, 9> Fragments = {
      // TensorIterator and generated device checks, 1.5 and later.
      "Expected all tensors to be on the same device",
      "found at least two devices",
      // Older TensorIterator wording.
      "common device",
      // Generated checks in 2.x: "mat1 is on cpu, different from other
      // tensors on cuda:0".
      "different from other tensors on",
      // A second 0-dim CPU tensor beside non-CPU operands.
      "Trying to pass too many CPU scalars",
      // cuBLAS/cuDNN argument checks.
      "but expected them to be on GPU",
      "but expected it to be on GPU",
      // Legacy TH dispatch.
      "Expected object of device type",
      // Indexing a CPU tensor with accelerator indices.
      "indices should be either on cpu or on the same device"};
  if (std::any_of(Fragments.begin(), Fragments.end(),
                  [&](std::string_view F) { return contains(Message, F); }))
    return true;
  // Convolutions: "Input type (CPUFloatType) and weight type (CUDAFloatType)
  // should be the same" (Python spells them torch.cuda.FloatTensor). A
  // dtype-only mismatch has both types on one device.
  if (contains(Message, "should be the same")) {
    std::string Input = parenthesizedAfter(Message, "Input type (");
    std::string Weight = parenthesizedAfter(Message, "weight type (");
    return !Input.empty() && !Weight.empty() &&
           namesAccelerator(Input) != namesAccelerator(Weight);
  }
  return false;
}

bool isNonLeafOptimizerMessage(const std::string &Message) {
  return contains(Message, "can't optimize a non-leaf Tensor");
}

std::string firstLine(const std::string &Message) {
  return Message.substr(0, Message.find('\n'));
}

} // namespace torch_tidy::runtime
