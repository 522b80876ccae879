//===--- ModuleRegistrations.h - What a torch::nn::Module registers -------===//
//
// Module::to moves registered parameters, buffers and submodules in place;
// which members a module registers decides what follows a move.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_MODULEREGISTRATIONS_H
#define TORCH_TIDY_CHECKS_API_MODULEREGISTRATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::torch_tidy::api {

/// What the class's methods register: the field a `register_*` call is
/// assigned to, and the field passed to it (C++ registers that very tensor
/// or module, so the member follows Module::to even if the result is
/// ignored).
struct Registrations {
  llvm::DenseSet<const FieldDecl *> Fields;
  /// `field = <expr>;` statements in constructors, for the fix-it.
  llvm::DenseMap<const FieldDecl *, const CXXOperatorCallExpr *> Assignments;
  /// Fields assigned (without registering) in methods other than the
  /// constructors: what they hold after Module::to is not known.
  llvm::DenseSet<const FieldDecl *> AssignedAfterConstruction;
  /// The user's module classes it registers, directly or inside a
  /// registered container (`blocks->push_back(Block(...))`,
  /// `Sequential(A(), B())`): Module::to moves them with it.
  llvm::SmallVector<const CXXRecordDecl *, 4> Submodules;
};

/// The registrations of \p Module's constructors and methods.
Registrations collectRegistrations(const CXXRecordDecl &Module, ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_MODULEREGISTRATIONS_H
