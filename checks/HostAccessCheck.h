//===--- HostAccessCheck.h - device-host-access ---------------------------===//

#ifndef TORCH_TIDY_CHECKS_HOSTACCESSCHECK_H
#define TORCH_TIDY_CHECKS_HOSTACCESSCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds host reads of memory that may be on an accelerator: `data_ptr<T>()`,
/// `data<T>()` or `accessor<T, N>()` of a tensor that may be on a GPU, read
/// on the host; and a raw pointer kept from a temporary CPU copy
/// (`x.cpu().data_ptr<float>()`), which dangles when `x` was on a GPU.
class HostAccessCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  /// `x.data_ptr<T>()`, `x.data<T>()`, `x.accessor<T, N>()`: a raw view of a
  /// tensor's memory, with what is known of the tensor; for a pointer into
  /// a temporary copy (`x.cpu().data_ptr<T>()`), the copy and what it copies.
  struct PointerTake {
    const CXXMemberCallExpr *Call;
    flow::TensorValue Tensor;
    const CXXMemberCallExpr *Temporary = nullptr;
    flow::TensorValue Copied;
  };
  static std::vector<PointerTake> pointerTakes(const flow::FunctionFacts &Facts,
                                               ASTContext &Ctx);

  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
  void reportDeviceRead(const PointerTake &Take, const Expr *Read,
                        const flow::FunctionFacts &Facts, ASTContext &Ctx);
  void reportTemporary(const PointerTake &Take, const Expr *Use,
                       const flow::FunctionFacts &Facts, ASTContext &Ctx);
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_HOSTACCESSCHECK_H
