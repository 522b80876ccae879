//===--- HostTensors.h - Tensors known to be on the CPU ---------*- C++ -*-===//
//
// A few lines of provenance, enough to tell a tensor that is on the CPU in
// every run: a factory without a device, `.cpu()`, `.to(torch::kCPU)`, what
// LibTorch computes from such tensors, and variables, parameters and helper
// results that only ever hold them. Everything else may be on a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_HOSTTENSORS_H
#define TORCH_TIDY_CHECKS_API_HOSTTENSORS_H

#include "clang/AST/Expr.h"
#include "utils/ValueOrigins.h"

namespace clang::tidy::torch_tidy::api {

/// Whether \p E names the CPU: `torch::kCPU`, "cpu", and devices or options
/// built from them (`torch::Device(torch::kCPU)`, `torch::device(kCPU)`).
bool namesTheCpu(const Expr *E);

/// Whether the tensor \p E is on the CPU whatever the run: nothing in its
/// provenance (followed through \p Origins, \p Depth steps back) may put it
/// on an accelerator.
bool isOnTheCpu(const Expr &E, utils::ValueOrigins &Origins,
                unsigned Depth = 4);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_HOSTTENSORS_H
