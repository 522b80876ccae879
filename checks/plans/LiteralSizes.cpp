//===--- LiteralSizes.cpp - The sizes a factory call spells ---------------===//

#include "LiteralSizes.h"
#include "api/TorchApi.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::plans {

std::optional<std::vector<int64_t>> literalSizes(const Expr *Factory) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Factory);
  if (!Call || Call->getNumArgs() == 0)
    return std::nullopt;
  if (api::isZeroDimFactoryCall(*Call))
    return std::vector<int64_t>();
  const Expr *First = Call->getArg(0)->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(First)) {
    if (Construct->getNumArgs() == 0)
      return std::nullopt;
    First = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(First))
    First = StdList->getSubExpr()->IgnoreImplicit();
  const auto *List = dyn_cast<InitListExpr>(First);
  if (!List || List->getNumInits() == 0 || List->getNumInits() > 8)
    return std::nullopt;
  std::vector<int64_t> Sizes;
  int64_t Elements = 1;
  for (const Expr *Init : List->inits()) {
    const auto *Literal = dyn_cast<IntegerLiteral>(Init->IgnoreImplicit());
    if (!Literal)
      return std::nullopt;
    int64_t Size = Literal->getValue().getSExtValue();
    Elements *= std::max<int64_t>(Size, 1);
    if (Size < 0 || Elements > (1 << 20))
      return std::nullopt;
    Sizes.push_back(Size);
  }
  return Sizes;
}

} // namespace clang::tidy::torch_tidy::plans
