//===--- MetaStandIn.h - Where the meta device stands in for a GPU --------===//
//
// The meta device runs LibTorch's shape and device checks without data. It
// is a faithful stand-in for an accelerator only where those checks are the
// ones a GPU runs (DESIGN.md, "LibTorch facts"; measured with LibTorch 1.13).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_METASTANDIN_H
#define TORCH_TIDY_RUNTIME_METASTANDIN_H

#include <string>

namespace torch_tidy::runtime {

/// Whether the call function \p Fn checks the devices of its operands on
/// meta as it does on a GPU: element-wise (TensorIterator) ops and pointwise
/// losses. A device-mismatch observable at any other step is inconclusive
/// on meta, whether or not that step threw.
bool metaChecksDevicesOf(const std::string &Fn);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_METASTANDIN_H
