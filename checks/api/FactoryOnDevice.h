//===--- FactoryOnDevice.h - A factory then a move, as one factory -*- C++ -*-===//
//
// `torch::ones({n}).to(device)` allocates and fills a tensor on the host and
// copies it; `torch::ones({n}, torch::device(device))` allocates it on the
// device. What LibTorch allows between the two (fills that overwrite every
// element), where a factory takes its options, which factories give the same
// values on every device, and the edit from one form to the other.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_FACTORYONDEVICE_H
#define TORCH_TIDY_CHECKS_API_FACTORYONDEVICE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include <vector>

namespace clang::tidy::torch_tidy::api {

/// A tensor method that overwrites every element from scalars alone, on the
/// tensor's own device: `fill_(v)`, `zero_()`, and the random fills
/// `uniform_`, `normal_`, `bernoulli_(p)`, `random_`, `exponential_`,
/// `geometric_`, `log_normal_`, `cauchy_` (not their overloads that take a
/// tensor).
bool isFillMethod(const CXXMethodDecl *Method);

/// The factory whose result \p Object is, through fills: `torch::empty(n)` in
/// `torch::empty(n).uniform_(0.8, 1.0)`; null for anything else.
const CallExpr *factoryBeneathFills(const Expr &Object);

/// `torch::tensor(...)`: with a device in its options LibTorch still fills a
/// CPU tensor from the host data and copies it (TensorDataContainer's
/// convert_to_tensor), so the device saves nothing there.
bool buildsFromHostData(const CallExpr &Factory);

/// How the values of \p Factory's tensor, filled on its way to \p Move,
/// compare when computed on the device instead.
enum class ValuesOnDevice {
  /// zeros, ones, full, empty, eye, scalar_tensor, arange of integers; fill_
  /// and zero_.
  Same,
  /// rand, randn, randint, randperm, and the random fills: each device has
  /// its own generator, which draws other numbers from the same seed.
  OtherRandomNumbers,
  /// linspace, logspace, arange of floating-point numbers: each device has
  /// its own kernel, which may round otherwise.
  OtherRounding,
};
ValuesOnDevice valuesOnDevice(const CallExpr &Factory,
                              const CXXMemberCallExpr &Move);

/// The edit that creates \p Factory's tensor on the device \p Move copies it
/// to, keeping the factory's other options, and removes \p Move:
///   torch::ones({n}).to(d)               -> torch::ones({n}, torch::device(d))
///   torch::ones({n}, torch::kHalf).to(d) -> ..., torch::dtype(torch::kHalf).device(d))
///   torch::ones({n}, opts).to(d)         -> torch::ones({n}, opts.device(d))
///   torch::ones({n}).cuda()              -> torch::ones({n}, torch::device(torch::kCUDA))
/// Empty when \p Move does more than change the device (`.to(d, dtype)`,
/// a memory format) or names it otherwise than with a Device or DeviceType,
/// or when a macro spells any part.
std::vector<FixItHint> createOnDevice(const CallExpr &Factory,
                                      const CXXMemberCallExpr &Move,
                                      const ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_FACTORYONDEVICE_H
