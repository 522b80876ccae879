//===--- TranslationUnitAnalysis.h - The dataflow of one translation unit -===//
//
// The per-translation-unit store of the device dataflow: the facts of every
// function analysed on its own and in the context of each call or moved
// class, what each module class registers and whether any instance of it is
// moved, and what each class's fields hold across its methods. Every check
// that reads the dataflow shares it; it is computed on demand and forgotten
// at the start of the next translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_TRANSLATIONUNITANALYSIS_H
#define TORCH_TIDY_CHECKS_FLOW_TRANSLATIONUNITANALYSIS_H

#include "ClassFacts.h"
#include "CrossFileRecorder.h"
#include "Facts.h"
#include "api/ModuleRegistrations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace clang::tidy::torch_tidy::flow {

class TranslationUnitAnalysis {
public:
  /// The analysis of the translation unit \p Ctx belongs to.
  static TranslationUnitAnalysis &of(ASTContext &Ctx);
  /// Forgets the previous translation unit; called by every check that reads
  /// the dataflow at the start of each translation unit.
  static void reset();

  /// The facts of \p Fn on its own: parameters unknown; for a method, the
  /// fields its class keeps across methods.
  const FunctionFacts &root(const FunctionDecl &Fn);
  /// The facts of \p Fn entered with \p Entry. Recorded for the rules unless
  /// \p Report is false (an analysis only for the class's field facts).
  const FunctionFacts &inContext(const FunctionDecl &Fn, State Entry,
                                 CallContext Context, bool Report = true);
  /// The facts of the forward() of a module class that is moved to an
  /// accelerator somewhere in the translation unit, with its registered
  /// members and inputs there; null for any other function.
  const FunctionFacts *movedClassContext(const FunctionDecl &Fn);
  /// A function analysed in a context, and the fact another translation
  /// unit must supply for what it finds there to hold (none: it holds).
  struct ContextEntry {
    const FunctionFacts *Facts;
    std::optional<Need> Condition;
  };
  /// The functions analysed in a context, in the order computed.
  const std::vector<ContextEntry> &contextFacts() const { return ContextOrder; }

  /// What the main file's functions do if other translation units supply
  /// what only they can show: each tensor parameter of an externally
  /// visible function given a tensor on an accelerator, each module
  /// parameter given a module moved to one or one left on the CPU, the
  /// forward() of a module class that this file does not move run as if it
  /// were moved.
  /// Computed once, after the rest; empty unless a cross-file recorder is
  /// installed.
  const std::vector<ContextEntry> &hypotheses();

  /// Records, for other translation units, that \p Call passes \p Arg, a
  /// tensor on an accelerator, as parameter \p Param of \p Callee, which
  /// this translation unit does not define.
  void supplyCall(const CallExpr &Call, const FunctionDecl &Callee,
                  unsigned Param, const Operand &Arg);

  /// Records, for other translation units, that \p Call passes \p Arg, a
  /// module that is \p Value there (moved to an accelerator, or built on the
  /// CPU and never moved), as parameter \p Param of \p Callee, which this
  /// translation unit does not define.
  void supplyModuleCall(const CallExpr &Call, const FunctionDecl &Callee,
                        unsigned Param, const Expr &Arg,
                        const ModuleValue &Value);

  /// What \p Call, to a function another translation unit defines, returns
  /// under the hypothesis being analysed (the whole value with \p Part
  /// empty, else the field \p Part of the aggregate): on the CPU if the
  /// hypothesis is that it returns it there, else unknown.
  TensorValue assumedReturn(const CallExpr &Call, llvm::StringRef Part);

  const api::Registrations &registrations(const CXXRecordDecl &Module);
  /// What the registered members of \p Module are once it is \p Moved: its
  /// tensors on that device, its submodules moved too.
  State movedMembers(const CXXRecordDecl &Module, const ModuleValue &Moved);
  const ClassFacts &classFacts(const CXXRecordDecl &Record);
  /// The fields that code outside their class assigns (`stats.total = x;`).
  const llvm::DenseSet<const FieldDecl *> &fieldsAssignedFromOutside();
  /// Where an instance of \p Module (or of a module that registers it) is
  /// moved to a device that may be an accelerator; null when none is.
  const ModuleValue *movedTo(const CXXRecordDecl &Module);

  /// The definition of \p Fn when the analysis follows calls of it: the
  /// user's code, not recursive, not virtual.
  const FunctionDecl *followedDefinition(const FunctionDecl *Fn);

  /// Whether the main file names an accelerator anywhere (kCUDA, "cuda",
  /// .cuda(), torch::cuda::is_available()): a program that never does has
  /// no device findings.
  bool namesAccelerator();

  /// How other translation units name \p Fn and \p Module.
  std::string entityOf(const FunctionDecl &Fn);
  std::string entityOf(const CXXRecordDecl &Module) const;

  /// How many functions hit the solver's bound.
  unsigned boundHits() const { return BoundHits; }

  ASTContext &context() const { return Ctx; }

  /// The top-level declarations of the user's code: the main file and
  /// headers that are neither system headers nor LibTorch's. With a
  /// precompiled header, listing them reads every declaration it holds, so
  /// they are listed once.
  llvm::ArrayRef<Decl *> userDeclarations();

private:
  explicit TranslationUnitAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}
  const FunctionFacts &analyze(const FunctionDecl &Fn, State Entry,
                               std::optional<CallContext> Context);
  void findRecursion();
  void findMovedClasses();
  void supplyRegistrations();
  const FunctionFacts *analyzeHypothesis(const FunctionDecl &Fn, State Entry,
                                         std::optional<CallContext> Context,
                                         Need Condition);
  /// What \p Fn sees on its own: for a method, the fields its class keeps.
  State rootEntry(const FunctionDecl &Fn);
  /// The main file's functions in the order they are written.
  std::vector<const FunctionDecl *> mainFileRoots() const;
  /// Records, for other translation units, what \p Fn returns on the CPU
  /// in \p Facts (under \p Condition, if any) that its root does not.
  void supplyReturns(const FunctionDecl &Fn, const FunctionFacts &Facts,
                     std::optional<Need> Condition);
  /// The hypotheses that a function another translation unit defines
  /// returns on the CPU, for the main file's functions that call one.
  void returnHypotheses();

  ASTContext &Ctx;
  std::vector<std::unique_ptr<FunctionFacts>> Owned;
  std::map<const FunctionDecl *, const FunctionFacts *> Roots;
  std::map<std::pair<const FunctionDecl *, std::string>, const FunctionFacts *>
      InContext;
  std::map<const FunctionDecl *, const FunctionFacts *> MovedClass;
  std::vector<ContextEntry> ContextOrder;
  llvm::DenseSet<const FunctionFacts *> Reported;
  /// The condition of the hypothesis being analysed, if any.
  std::optional<Need> Hypothesis;
  std::optional<std::vector<ContextEntry>> Hypotheses;
  std::set<std::tuple<const CallExpr *, unsigned, std::optional<Need>>>
      SuppliedCalls;
  std::unique_ptr<ASTNameGenerator> Names;
  std::map<const CXXRecordDecl *, api::Registrations> Registered;
  std::map<const CXXRecordDecl *, std::unique_ptr<ClassFacts>> Classes;
  std::optional<llvm::DenseMap<const CXXRecordDecl *, ModuleValue>> Moved;
  std::optional<llvm::DenseSet<const Decl *>> Recursive;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  std::optional<bool> NamesAccelerator;
  std::optional<std::vector<Decl *>> UserDeclarations;
  std::optional<llvm::DenseSet<const FieldDecl *>> AssignedFromOutside;
  unsigned BoundHits = 0;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_TRANSLATIONUNITANALYSIS_H
