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
};

llvm::ArrayRef<CheckInfo> checkCatalog() { return Catalog; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Info : Catalog)
    if (Info.Name == Name)
      return &Info;
  return nullptr;
}

} // namespace clang::tidy::torch_tidy
