//===--- ExtensionApi.h - What PyTorch C++/CUDA extension ops use -*- C++ -*-===//

#ifndef TORCH_TIDY_CHECKS_API_EXTENSIONAPI_H
#define TORCH_TIDY_CHECKS_API_EXTENSIONAPI_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::api {

/// A guard that sets the current CUDA device for its scope:
/// at::cuda::(Optional)CUDAGuard, c10::cuda::(Optional)CUDAGuard,
/// at::(Optional)DeviceGuard, c10::cuda::(Optional)CUDAStreamGuard.
bool isDeviceGuardType(QualType Type);

/// The tensor variable whose device \p Call asks to be CUDA: `x` in
/// `x.is_cuda()`, `x.device().is_cuda()`, `x.type().is_cuda()` (what
/// TORCH_CHECK, AT_ASSERTM and CHECK_CUDA/CHECK_INPUT macros expand to).
const ValueDecl *cudaCheckedTensor(const CXXMemberCallExpr &Call);

/// The call that exposes a tensor's memory to a kernel: `x.data_ptr<T>()`,
/// `x.data<T>()`, `x.data_ptr()`, `x.packed_accessor32<...>()`, with casts
/// and parentheses around it; null for anything else.
const CXXMemberCallExpr *tensorMemoryAccess(const Expr &E);

/// A CUDA stream argument that is the legacy or per-thread default stream:
/// `0`, `nullptr`, `cudaStreamDefault`, `cudaStreamLegacy`.
bool isDefaultStream(const Expr &Stream, ASTContext &Ctx);

/// The current PyTorch stream: at::cuda::getCurrentCUDAStream(),
/// c10::cuda::getCurrentCUDAStream(), a stream from getStreamFromPool, or
/// its `.stream()`.
bool isCurrentStreamCall(const Expr &E);

/// A synchronous CUDA runtime call on the legacy default stream:
/// cudaMemcpy, cudaMemset, cudaMemcpy2D, cudaMemcpyToSymbol, ...
bool isSynchronousMemoryCall(const CallExpr &Call);

/// `cudaStreamSynchronize(s)`: its stream argument, else null.
const Expr *synchronizedStream(const CallExpr &Call);

/// A torch:: or at:: factory that allocates an output tensor from sizes:
/// empty, zeros, ones, full, empty_strided, rand, randn.
bool isOutputFactory(const CallExpr &Call);

/// Where a factory's tensor is allocated, by its options.
enum class OutputDevice {
  Cpu,           ///< no device in the options: the CPU
  CurrentCuda,   ///< torch::kCUDA without an index: the current CUDA device
  FromArguments, ///< anything else: x.options(), a device variable, ...
};
OutputDevice outputDevice(const CallExpr &Factory);

/// The arguments of \p Factory after its sizes (and fill value) that are its
/// dtype or options; the argument a fix replaces.
const Expr *factoryOptionsArgument(const CallExpr &Factory);

/// The dtype \p Options is written as when it is one alone:
/// `torch::kFloat`, `x.scalar_type()`; null otherwise.
const Expr *dtypeOnlyOptions(const Expr &Options);

/// Whether c10::cuda::\p Name is declared and at::cuda is there to name it
/// (OptionalCUDAGuard, getCurrentCUDAStream): what a fix may spell.
bool declaresAtCudaName(ASTContext &Ctx, llvm::StringRef Name);

/// Whether at::Tensor is declared: the file is part of a PyTorch extension.
bool declaresTensor(ASTContext &Ctx);

/// `m.def("name", &f)` (pybind11) or `m.def("schema", f)` (TORCH_LIBRARY):
/// a registration that exposes functions to Python for tensors on any
/// device.
bool isRegistrationCall(const CXXMemberCallExpr &Call);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_EXTENSIONAPI_H
