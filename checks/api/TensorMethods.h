//===--- TensorMethods.h - What the dataflow asks of LibTorch's names -----===//
//
// The LibTorch methods and functions whose meaning the device dataflow
// models: moves between devices, reductions to a 0-dim tensor, tensor
// options, requires_grad, forward() of a module, from_blob.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_TENSORMETHODS_H
#define TORCH_TIDY_CHECKS_API_TENSORMETHODS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::torch_tidy::api {

enum class TensorMove { None, To, Cuda, Cpu };
/// `x.to(...)`, `x.cuda()`, `x.cpu()` on a tensor.
TensorMove tensorMoveOf(const CXXMethodDecl *Method);

/// A reduction over every dimension: `x.sum()`, `x.mean()`, `x.max()` with no
/// argument; its result is 0-dim.
bool isFullReduction(const CallExpr &Call);

/// Indexing that drops a dimension: `x[i]`, `x.select(d, i)`, `x.index({i})`
/// with an integer `i` (not `x[mask]`, `x.index({idx, Slice()})`).
/// Without the shapes, the result may be 0-dim (a scalar beside device
/// tensors is fine): the dataflow takes it for one.
bool mayDropToZeroDim(const CallExpr &Call);

/// `torch::from_blob(data, sizes, options)`: wraps memory the caller owns,
/// on the device its options name (the CPU when they name none).
bool isFromBlob(const FunctionDecl *Fn);

/// `forward` of a torch::nn::Module subclass.
bool isForwardMethod(const CXXMethodDecl *Method);
/// The forward() of \p Module that a holder's `operator()` runs: its one
/// method named forward (null when overloaded: which runs is not known).
const CXXMethodDecl *forwardMethodOf(const CXXRecordDecl &Module);

/// A tensor method that changes the tensor in place: `add_`, `copy_`,
/// `operator+=`. LibTorch declares them const (a Tensor is a handle), so
/// clang's mutation analysis does not see them.
bool isInPlaceMethod(const CXXMethodDecl *Method);

/// `module->parameters()`, `buffers()` and their named forms: the module's
/// tensors, on its device.
bool isParameterAccessor(const CXXMethodDecl *Method);

/// `x.requires_grad_(...)`, `x.set_requires_grad(...)`.
bool isRequiresGradSetter(const CXXMethodDecl *Method);

/// `x.options()`: the TensorOptions of a tensor, its device included.
bool isOptionsAccessor(const CXXMethodDecl *Method);

/// `x.device()`: the device of a tensor.
bool isDeviceAccessor(const CXXMethodDecl *Method);

/// What a TensorOptions builder sets: `.device(d)`, `torch::device(d)`,
/// `.requires_grad(b)`, `torch::requires_grad(b)`, or something else
/// (dtype, layout, memory format).
enum class OptionsSetter { Other, Device, RequiresGrad };
OptionsSetter optionsSetterOf(const FunctionDecl *Fn);

/// An element-wise comparison (`eq`, `ne`, `==`, `!=`): how predictions meet
/// targets in an accuracy metric.
bool isComparison(const FunctionDecl *Fn);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_TENSORMETHODS_H
