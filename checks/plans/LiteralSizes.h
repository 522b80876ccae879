//===--- LiteralSizes.h - The sizes a factory call spells -------*- C++ -*-===//

#ifndef TORCH_TIDY_CHECKS_PLANS_LITERALSIZES_H
#define TORCH_TIDY_CHECKS_PLANS_LITERALSIZES_H

#include "clang/AST/Expr.h"
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::plans {

/// The sizes a factory call spells as integer literals (`torch::zeros({8,
/// 10})`), `{}` for a 0-dim factory; none when it spells none, or sizes of
/// more than 2^20 elements (the bug does not depend on them, and the probe
/// caps the elements of a plan).
std::optional<std::vector<int64_t>> literalSizes(const Expr *Factory);

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_LITERALSIZES_H
