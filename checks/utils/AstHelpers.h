//===--- AstHelpers.h - Small AST queries shared by the checks ------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_ASTHELPERS_H
#define TORCH_TIDY_CHECKS_UTILS_ASTHELPERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::torch_tidy::utils {

/// True when the value of \p E is thrown away: \p E (under implicit nodes such
/// as temporaries and cleanups) is a statement of its own, e.g. `x.to(d);`.
/// An explicit `(void)` cast is a use.
bool isDiscardedResult(const Expr &E, ASTContext &Ctx);

/// \p E without what only carries its value: parentheses, implicit casts,
/// temporaries, cleanups, copies and functional casts.
const Expr *ignoreTemporaries(const Expr *E);

/// The variable or field of `this` that \p E names, if it is a plain name:
/// `x`, `this->x` or `x_` inside a method. Null otherwise.
const ValueDecl *namedObject(const Expr &E);

/// Whether \p D has a plain identifier for a name and it is one of \p Names
/// (false for null, operators and constructors).
bool isNamedOneOf(const NamedDecl *D,
                  std::initializer_list<llvm::StringRef> Names);

/// The references to \p Decl in \p Body that may be evaluated after \p After
/// (later in the same block, in a block \p After's block reaches, or again
/// in the next iteration of a loop), not counting \p After's own operands:
/// in the order they may run, the nearest first (fewest blocks between; in
/// source order within one block), so that a loop's next pass comes after
/// the rest of this one.
std::vector<const Expr *> referencesAfter(const ValueDecl &Decl,
                                          const Stmt &Body, const Stmt &After,
                                          ASTContext &Ctx);

/// The first of referencesAfter(): the nearest after \p After. Null if none.
const Expr *firstReferenceAfter(const ValueDecl &Decl, const Stmt &Body,
                                const Stmt &After, ASTContext &Ctx);

/// The body of the function, lambda or block that encloses \p S.
const Stmt *enclosingFunctionBody(const Stmt &S, ASTContext &Ctx);

/// The source text of \p E, or nothing if it comes from a macro.
std::optional<std::string> sourceText(const Expr &E, const ASTContext &Ctx);

/// The variables of a \p Wanted type that can be named at \p S: locals
/// declared before it in enclosing blocks, parameters, and fields of the
/// class.
llvm::SmallVector<const ValueDecl *, 2>
variablesInScope(const Stmt &S, ASTContext &Ctx,
                 llvm::function_ref<bool(QualType)> Wanted);

/// The string literal \p E is, through implicit conversions, parentheses and
/// the construction of a std::string from it: `"cpu"`, `std::string("cpu")`.
const StringLiteral *stringLiteralOf(const Expr &E);

/// The function (or lambda call operator) whose body contains \p S.
const FunctionDecl *enclosingFunction(const Stmt &S, ASTContext &Ctx);

/// Whether \p S runs only under a condition in its function: in a branch of
/// an `if`, a `switch`, a `?:` or the right operand of `&&`/`||`.
bool isUnderCondition(const Stmt &S, ASTContext &Ctx);
/// The same, counting only the conditions between \p S and \p Ancestor (a
/// copy on some iterations of a loop only).
bool isUnderConditionWithin(const Stmt &S, const Stmt *Ancestor,
                            ASTContext &Ctx);

/// Whether the compiler recovered from an error inside \p S: an expression
/// that contains errors (a call it could not resolve became a RecoveryExpr)
/// or an invalid declaration. A rule that concludes from the absence of a
/// call must not conclude anything there: the call may be what was lost.
bool containsErrors(const Stmt &S);

/// Whether \p Record, its constructors' initializers or its methods' bodies
/// contain errors the compiler recovered from.
bool containsErrors(const CXXRecordDecl &Record);

/// The top-level declarations the checks' traversal covers: the traversal
/// scope when the tool limited it to the user's code (torch-tidy does; stock
/// clang-tidy does not), else every declaration of the translation unit.
std::vector<Decl *> scopeDeclarations(ASTContext &Ctx);

/// The call operator of the lambda \p E is: a lambda expression, a
/// variable holding one, or a wrapper (`std::function`) constructed from
/// either. Null for anything else, and for a generic lambda.
const CXXMethodDecl *lambdaCallOperator(const Expr &E);

/// The top-level declarations outside a limited traversal scope (none when
/// the scope is the whole translation unit). With a precompiled header,
/// listing them reads every top-level declaration it holds.
std::vector<Decl *> declarationsOutsideScope(ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_ASTHELPERS_H
