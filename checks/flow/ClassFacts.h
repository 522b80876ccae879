//===--- ClassFacts.h - What a class's tensor fields hold across methods --===//
//
// A field set in the constructor and read in another method: its value in
// every method is the join of what the constructors leave in it and what
// any other method writes (each analysed with the constructors' values).
// Known only when every place that could set it is seen: a class whose
// constructor is defined in another translation unit, or a public field
// assigned from outside the class, has no field facts.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_CLASSFACTS_H
#define TORCH_TIDY_CHECKS_FLOW_CLASSFACTS_H

#include "State.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::torch_tidy::flow {

class TranslationUnitAnalysis;

struct ClassFacts {
  /// The fields of `this` with a known value in every method but the
  /// constructors.
  State Fields;
};

/// The field facts of \p Record (not a module: Module::to moves what it
/// registers, which the module context models instead).
ClassFacts computeClassFacts(const CXXRecordDecl &Record,
                             TranslationUnitAnalysis &TU);

/// The fields that the code in \p Declarations assigns from outside their
/// class: `stats.total = x;`.
llvm::DenseSet<const FieldDecl *>
findFieldsAssignedFromOutside(llvm::ArrayRef<Decl *> Declarations);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_CLASSFACTS_H
