//===--- ExtensionOps.h - The ops and kernel launches of a CUDA extension -*- C++ -*-===//

#ifndef TORCH_TIDY_CHECKS_FLOW_EXTENSIONOPS_H
#define TORCH_TIDY_CHECKS_FLOW_EXTENSIONOPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <vector>

namespace clang::tidy::torch_tidy::flow {

/// A tensor's memory handed to a kernel: `x.data_ptr<float>()` as an
/// argument of a launch or of a function of this file that launches, or
/// through a local pointer or accessor initialised with it.
struct MemoryToKernel {
  const CXXMemberCallExpr *Access;
  const ValueDecl *Tensor;
  const CallExpr *Launch; ///< the launch, or the call of the launcher
};

/// The functions of one translation unit (the main file's) as ops: which
/// launch kernels (in their own body or in lambdas such as AT_DISPATCH's),
/// which call each other, where they take device guards, which tensors they
/// check are on CUDA, and which are registered with Python (pybind11's
/// m.def, TORCH_LIBRARY's def/impl). Facts that hold on every path: a guard
/// or a check in every caller counts; a function without callers here only
/// counts its own.
class ExtensionOps {
public:
  explicit ExtensionOps(ASTContext &Ctx);
  ~ExtensionOps();

  /// The definitions of the main file, in source order.
  const std::vector<const FunctionDecl *> &functions() const { return Order; }
  /// The launches of \p Fn's own body, lambdas included, in source order.
  llvm::ArrayRef<const CUDAKernelCallExpr *> launches(const FunctionDecl *Fn) const;
  /// Whether \p Fn launches a kernel itself or through what it calls here.
  bool launchesKernels(const FunctionDecl *Fn) const;
  /// Whether \p Fn has callers in this file.
  bool hasCallers(const FunctionDecl *Fn) const;
  /// Whether \p Fn takes a tensor, or is called here from a function that
  /// does (transitively): a part of an op, not CUDA code of its own.
  bool isPartOfTensorOp(const FunctionDecl *Fn) const;
  /// Whether \p Fn is registered with Python here, or called only from
  /// functions that are: its tensors come from Python as they are.
  bool isReachedOnlyFromPython(const FunctionDecl *Fn) const;
  /// Whether a device guard is taken before \p At in \p Fn, or before the
  /// call in every caller.
  bool isGuardedAt(const FunctionDecl *Fn, SourceLocation At) const;
  /// Whether \p Tensor is checked to be on CUDA before \p At in \p Fn, or,
  /// a parameter, its argument in every caller.
  bool isCudaCheckedAt(const FunctionDecl *Fn, const ValueDecl *Tensor,
                       SourceLocation At) const;
  /// The tensors' memory that \p Fn hands to kernels.
  std::vector<MemoryToKernel> memoryToKernels(const FunctionDecl *Fn) const;
  /// The calls in \p Fn of functions of this file that launch kernels.
  std::vector<const CallExpr *> launcherCalls(const FunctionDecl *Fn) const;

  struct Facts;

private:
  ASTContext &Ctx;
  std::vector<const FunctionDecl *> Order;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<Facts>> ByFunction;
  const Facts *facts(const FunctionDecl *Fn) const;
  bool isGuardedAt(const FunctionDecl *Fn, SourceLocation At,
                   llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const;
  bool isCudaCheckedAt(const FunctionDecl *Fn, const ValueDecl *Tensor,
                       SourceLocation At,
                       llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const;
  bool launchesKernels(const FunctionDecl *Fn,
                       llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const;
  bool isPartOfTensorOp(const FunctionDecl *Fn,
                        llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const;
  bool isReachedOnlyFromPython(
      const FunctionDecl *Fn,
      llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) const;
};

/// The first tensor parameter of \p Fn; null when it has none.
const ParmVarDecl *firstTensorParameter(const FunctionDecl &Fn);

/// The parameter \p Tensor is, or a local copy or view of through its
/// initialiser (`auto x = input.contiguous();`); null for anything else.
const ParmVarDecl *parameterBehind(const ValueDecl *Tensor);

/// The definition a call or a reference to \p Fn reaches: its template
/// pattern for an instantiation.
const FunctionDecl *definitionOf(const FunctionDecl *Fn);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_EXTENSIONOPS_H
