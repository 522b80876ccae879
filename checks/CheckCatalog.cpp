//===--- CheckCatalog.cpp - What each torch-tidy rule is about ------------===//

#include "CheckCatalog.h"

namespace clang::tidy::torch_tidy {

static const CheckInfo Catalog[] = {
    {"device-discarded-to",
     "The result of a tensor conversion such as 'x.to(device)' is discarded.",
     "Tensor::to, cuda() and cpu() return a tensor on the target device (or "
     "the tensor itself when nothing changes); they never move their object in "
     "place. Discarding the result leaves the tensor where it was, and a later "
     "operation mixes devices. Assign the result: 'x = x.to(device);'."},
    {"device-factory-without-device",
     "A tensor created without a device (so on the CPU) meets a tensor that "
     "may be on an accelerator.",
     "LibTorch has no global default device: torch::zeros({1}) without a "
     "device in its options is on the CPU. When it later meets a tensor on "
     "the GPU in an operation such as 'total += loss', LibTorch throws "
     "'Expected all tensors to be on the same device'. A 0-dim CPU tensor is "
     "accepted as an input of element-wise ops, never as their output. Create "
     "the tensor on the device: torch::zeros({1}, torch::device(device)) or "
     "x.options()."},
    {"device-hardcoded",
     "A device index or a CUDA device is written into a tensor operation "
     "instead of being chosen in one place.",
     "'x.to(torch::Device(torch::kCUDA, 1))' fails on a machine with one GPU, "
     "and 'x.cuda()' or 'torch::kCUDA' in a translation unit that never asks "
     "torch::cuda::is_available() fails on a machine without a GPU. Choose "
     "the device once (a config member, 'auto device = "
     "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;', a function "
     "returning it) and pass that device to the operations."},
    {"device-invalid-string",
     "A device string that LibTorch's parser rejects or misreads.",
     "torch::Device(\"CPU\") throws: LibTorch's device strings are a "
     "lower-case type name from a fixed list (cpu, cuda, mps, meta, ...) and "
     "an optional ':index' without sign or leading zeros; an index over 127 "
     "does not fit the 8-bit DeviceIndex and names another device. Use the "
     "canonical spelling, e.g. \"cuda:1\"."},
    {"device-from-blob",
     "torch::from_blob wraps memory with a device that is not where the "
     "memory lives.",
     "from_blob(ptr, sizes, options) trusts the options' device: host memory "
     "(a std::vector, a stack array, a cv::Mat, a CPU tensor) wrapped with a "
     "CUDA device, or device memory (cudaMalloc, a thrust::device_vector, a "
     "CUDA tensor's data_ptr) wrapped without one, is read as the wrong kind "
     "of memory. Wrap host memory on the CPU and move the tensor; pass the "
     "device for device memory."},
    {"device-host-access",
     "The host reads memory that may be on an accelerator, or keeps a "
     "pointer into a temporary CPU copy.",
     "data_ptr<T>(), data<T>() and accessor<T, N>() of a CUDA tensor give "
     "device memory that the host must not dereference. And "
     "'x.cpu().data_ptr<float>()' kept in a pointer dangles when x was on a "
     "GPU (the copy is freed at the end of the statement) but works when x "
     "was on the CPU ('cpu()' returns x itself). Bind the CPU copy to a "
     "variable and take the pointer from it; use item() for one value."},
    {"device-load-without-device",
     "A checkpoint is loaded without a target device.",
     "torch::load(value, path), torch::jit::load(path) and "
     "InputArchive::load_from(path) restore every tensor to the device it was "
     "saved from, and existing parameters adopt it: a module moved to the GPU "
     "can end up on the CPU, and a GPU checkpoint fails to load on a CPU-only "
     "machine. Pass the device to load to."},
    {"device-loop-copy-to",
     "A tensor moved inside a range-for loop is assigned to the by-value loop "
     "variable, so the container is unchanged.",
     "'for (auto t : tensors) t = t.to(device);' assigns the moved tensor to a "
     "copy of the element; the container still holds the tensors on their old "
     "device. Iterate by reference: 'for (auto &t : tensors)'."},
    {"device-loop-invariant-to",
     "A tensor that never changes in a loop is copied to a device on every "
     "iteration.",
     "'mask.to(device)' inside a training loop, on a tensor declared before "
     "the loop that the loop never changes, copies it between devices at every "
     "step: a host-device transfer per iteration for the same bytes. Move it "
     "once before the loop: 'mask = mask.to(device);'."},
    {"device-mid-graph-to",
     "'.to()' on a leaf that requires grad.",
     "'.to()' is differentiable, but on a leaf that requires grad it returns a "
     "copy that is not a leaf: its .grad() stays undefined and an optimizer "
     "given it throws \"can't optimize a non-leaf Tensor\" (on the CPU it "
     "returns the leaf itself, so only a GPU run shows it). Create the tensor "
     "on the device."},
    {"device-mismatch",
     "A CPU tensor meets a tensor that may be on an accelerator.",
     "Operations other than element-wise ones with a 0-dim CPU input need all "
     "tensors on one device; LibTorch throws 'Expected all tensors to be on "
     "the same device'. Move the CPU tensor to the device first."},
    {"device-unmoved-input",
     "A module moved to a device that may be an accelerator receives an input "
     "on the CPU.",
     "Module::to moves the module's parameters; its input must be moved too, "
     "or forward fails with 'Expected all tensors to be on the same device' "
     "(Linear) or 'Input type (CPUFloatType) and weight type (CUDAFloatType) "
     "should be the same' (convolutions). Move the input to the module's "
     "device."},
    {"device-unmoved-target",
     "The batch's input was moved to the device but its target was not, and "
     "the target meets the model's output in a loss or metric.",
     "A torch::data DataLoader yields CPU tensors; moving batch.data but not "
     "batch.target makes the loss mix devices and LibTorch throws 'Expected "
     "all tensors to be on the same device'. Move the target to the same "
     "device."},
    {"device-unregistered-member",
     "A tensor member or submodule of a torch::nn::Module is never "
     "registered.",
     "Module::to moves registered parameters, buffers and submodules only. An "
     "unregistered tensor member stays on the CPU and forward() mixes "
     "devices; an unregistered submodule is also invisible to parameters() "
     "(never trained) and to serialization. Register it with register_buffer, "
     "register_parameter or register_module."},
};

llvm::ArrayRef<CheckInfo> checkCatalog() { return Catalog; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Info : Catalog)
    if (Info.Name == Name)
      return &Info;
  return nullptr;
}

} // namespace clang::tidy::torch_tidy
