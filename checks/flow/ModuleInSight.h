//===--- ModuleInSight.h - Whether only followed code may move a module ---===//
//
// The dataflow follows Module::to and the calls of the functions it
// analyses. A module handed to anything else (a function defined in another
// file, a copy, a lambda, torch::load) may be moved out of its sight: a
// conclusion that a module was never moved needs every use in sight.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_MODULEINSIGHT_H
#define TORCH_TIDY_CHECKS_FLOW_MODULEINSIGHT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::torch_tidy::flow {

/// Whether \p Module, a local variable holding a module that it builds
/// (`Net net;`, `std::make_shared<Net>()`, `torch::nn::Linear fc(4, 4)`)
/// or a parameter holding one, is moved only where the dataflow sees it:
/// its class does not move itself, and every use of it in its function
/// calls its forward, parameters(), train(), a method of its class,
/// torch::save or Module::to. \p PassedBy, a call that passes it on, is
/// not counted as a use.
bool movedOnlyInSight(const VarDecl &Module, ASTContext &Ctx,
                      const CallExpr *PassedBy = nullptr);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_MODULEINSIGHT_H
