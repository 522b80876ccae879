//===--- TrainingApi.h - What LibTorch's training names mean ----*- C++ -*-===//
//
// The LibTorch names of a training or evaluation loop: optimizers and their
// step/zero_grad, backward, module forward and eval/train, the guards that
// turn autograd off, frozen parameters, and the calls that make the host
// wait for the device. The training-loop rules learn them here only.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_TRAININGAPI_H
#define TORCH_TIDY_CHECKS_API_TRAININGAPI_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "utils/IterationNeeds.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang::tidy::torch_tidy::api {

/// torch::optim::Optimizer or a class derived from it (SGD, Adam, LBFGS...).
bool isOptimizerClass(const CXXRecordDecl *Record);
/// The optimizer class of an optimizer held as an object, a reference, a
/// pointer or a smart pointer; null for any other type.
const CXXRecordDecl *heldOptimizer(QualType Type);
/// The variable or field a module or an optimizer is reached through: `m`,
/// `m->`, `*m`, `m.get()`, `this->m_`. Null through any other call (a getter
/// may return another object each time).
const ValueDecl *receiverObject(const Expr *Object);
/// `opt.step()`, `opt->step(closure)` of an optimizer.
bool isOptimizerStep(const CXXMemberCallExpr &Call);
/// `zero_grad()` of an optimizer or of a torch::nn::Module.
bool isZeroGrad(const CXXMemberCallExpr &Call);
/// A gradient cleared by hand: `p.grad().zero_()`, `p.mutable_grad().zero_()`,
/// `p.mutable_grad().reset()`, `p.mutable_grad() = torch::Tensor()`.
bool isManualGradReset(const Expr &E);
/// `loss.backward()`, `torch::autograd::backward(...)`: gradients flow into
/// the leaves' .grad().
bool isBackward(const CallExpr &Call);
/// `torch::autograd::grad(...)`: gradients computed on purpose, without
/// touching .grad().
bool isAutogradGrad(const CallExpr &Call);
/// `m->parameters()`, `m.named_parameters()` of a torch::nn::Module.
bool isParametersCall(const CXXMemberCallExpr &Call);

/// The module object whose forward \p Call runs: `m` in `m->forward(x)`,
/// `m(x)` (a ModuleHolder), `m.forward({x})` (a torch::jit::Module). Null for
/// any other call.
const Expr *forwardedModule(const CallExpr &Call);
/// The module object that \p Call puts in evaluation mode: `m->eval()`,
/// `m->train(false)`, of a torch::nn::Module or a torch::jit::Module.
const Expr *evaluatedModule(const CXXMemberCallExpr &Call);
/// The module object that \p Call puts in training mode: `m->train()`.
const Expr *trainedModule(const CXXMemberCallExpr &Call);

/// A step of a model: a module forward, a backward, an optimizer step.
bool isModelStep(const CallExpr &Call);
/// A call that queues work on the device of its tensors: a model step, or a
/// LibTorch operation that computes a new tensor (not a view of one).
bool queuesDeviceWork(const CallExpr &Call);

/// A variable whose life turns autograd off: torch::NoGradGuard,
/// c10::InferenceMode (not `InferenceMode(false)`), AutoGradMode(false).
bool disablesGradients(const VarDecl &Var);
/// `torch::autograd::GradMode::set_enabled(false)`.
bool isGradModeOff(const CallExpr &Call);
/// The tensor that \p Call stops requiring grad: `p` in
/// `p.requires_grad_(false)` or `p.set_requires_grad(false)`.
const Expr *frozenTensor(const CXXMemberCallExpr &Call);

/// A call that makes the host wait until the device has finished the work
/// queued so far.
struct HostSync {
  enum Kind {
    Item,        ///< `t.item()`, `t.item<T>()`
    ToCpu,       ///< `t.cpu()`, `t.to(torch::kCPU)`
    Synchronize, ///< `torch::cuda::synchronize()`
    Print,       ///< `std::cout << t`
    Nonzero,     ///< `t.nonzero()`: its size is read back to the host
    Compare,     ///< `t.equal(u)`, `t.allclose(u)`, `t.is_nonzero()`
  } What;
  /// The tensor read back; null for Synchronize.
  const Expr *Tensor = nullptr;
  /// How the call is spelt: "item", "cpu", "to", "synchronize", "operator<<".
  llvm::StringRef Name;
};
std::optional<HostSync> hostSync(const Expr &E);

/// What a LibTorch call does with \p Operand, a value read back to the host
/// or a tensor holding it: a tensor operation or a conversion carries it on
/// (`x * v`, `s.toFloat()`, `t.cpu().argmax(1)`); a size, a dimension, an
/// index, a setting or a raw pointer into host memory needs it now. Unknown
/// for a call that is not LibTorch's.
utils::OperandUse hostValueUse(const CallExpr &Call, const Expr &Operand);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_TRAININGAPI_H
