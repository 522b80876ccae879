//===--- ModuleContents.h - What a LibTorch module class holds ------------===//
//
// Registering a submodule matters for what it holds: Module::to moves, and
// parameters() and serialization list, its parameters and buffers; train()
// and eval() reach it. LibTorch's parameter-free modules (pooling, padding,
// most activations) hold nothing any of these see.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_MODULECONTENTS_H
#define TORCH_TIDY_CHECKS_API_MODULECONTENTS_H

#include "clang/AST/DeclCXX.h"

namespace clang::tidy::torch_tidy::api {

enum class ModuleContents {
  /// Parameters, buffers or submodules, or not known: every module class but
  /// the LibTorch ones below (a user's module may register in its
  /// constructor whatever its fields do not show).
  State,
  /// Nothing, and forward() does not read the training mode: pooling,
  /// padding, Flatten, Identity, Upsample, the activations but PReLU (a
  /// weight) and RReLU.
  Nothing,
  /// Nothing but the training mode, which forward() reads: the dropouts and
  /// RReLU (random slopes while training).
  TrainingModeOnly,
};

/// What the module class \p Module (an `...Impl`, as api::heldModule returns
/// it) holds, from LibTorch 1.13's torch/nn/modules.
ModuleContents contentsOf(const CXXRecordDecl *Module);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_MODULECONTENTS_H
