//===--- FunctionAnalysis.h - One function in one context -----------------===//
//
// Builds the function's CFG and interprets it in three passes: the first
// iteration of every loop (recording), the fixpoint (silent), and one pass
// over the fixpoint's states (recording). A conflict on the first iteration
// happens on a real run even where the fixpoint no longer knows the device.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_FUNCTIONANALYSIS_H
#define TORCH_TIDY_CHECKS_FLOW_FUNCTIONANALYSIS_H

#include "Facts.h"

namespace clang::tidy::torch_tidy::flow {

class TranslationUnitAnalysis;

/// The facts of \p Fn entered with \p Entry (its parameters, the fields of
/// `this`), in \p Context when a call or a moved class put it there.
FunctionFacts analyzeFunction(const FunctionDecl &Fn, TranslationUnitAnalysis &TU,
                              const State &Entry,
                              std::optional<CallContext> Context);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_FUNCTIONANALYSIS_H
