//===--- FunctionAnalysis.cpp - One function in one context ---------------===//

#include "FunctionAnalysis.h"
#include "CallSites.h"
#include "LiveLocals.h"
#include "LocalVariables.h"
#include "Solver.h"
#include "Transfer.h"
#include "TranslationUnitAnalysis.h"
#include "utils/AstHelpers.h"
#include "clang/Analysis/Analyses/CFGReachabilityAnalysis.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"

namespace clang::tidy::torch_tidy::flow {

TensorValue FunctionFacts::deviceOf(const Expr &E) const {
  auto It = Values.find(&E);
  if (It == Values.end())
    It = Values.find(utils::ignoreTemporaries(&E));
  return It == Values.end() ? TensorValue::unknown() : It->second;
}

TensorValue FunctionFacts::deviceEveryTime(const Expr &E) const {
  const Expr *Key = Values.count(&E) ? &E : utils::ignoreTemporaries(&E);
  return FirstIterationOnly.count(Key) ? TensorValue::unknown() : deviceOf(*Key);
}

/// The statements of the blocks that can reach themselves.
static llvm::DenseSet<const Stmt *> loopStatements(const CFG &Graph) {
  llvm::DenseSet<const Stmt *> Out;
  CFGReverseBlockReachabilityAnalysis Reachability(Graph);
  for (const CFGBlock *Block : Graph) {
    bool OnCycle = llvm::any_of(Block->succs(), [&](const CFGBlock *Succ) {
      return Succ && Reachability.isReachable(Succ, Block);
    });
    if (!OnCycle)
      continue;
    for (const CFGElement &Element : *Block)
      if (auto Statement = Element.getAs<CFGStmt>())
        Out.insert(Statement->getStmt());
  }
  return Out;
}

/// A place the callers of \p Fn can see: a field, a parameter passed by
/// non-const reference, a module parameter (a holder shares its module).
static bool visibleToCallers(const ValueDecl *D, const FunctionDecl &Fn) {
  if (isa<FieldDecl>(D))
    return true;
  const auto *Param = dyn_cast<ParmVarDecl>(D);
  if (!Param || Param->getDeclContext() != &Fn)
    return false;
  QualType Type = Param->getType();
  return api::heldModule(Type) ||
         (Type->isReferenceType() &&
          !Type.getNonReferenceType().isConstQualified());
}

/// What \p Fn leaves in the places its callers see, from the state at its
/// exit and the places it wrote.
static void summarizeExit(const FunctionDecl &Fn, const State *Exit,
                          const Transfer &T, FunctionFacts &Facts) {
  if (!Exit)
    return; // it never returns
  for (const Location &Place : T.writtenTensors()) {
    if (!visibleToCallers(Place.Base, Fn))
      continue;
    auto It = Exit->Tensors.find(Place);
    if (It != Exit->Tensors.end())
      Facts.Exit.Tensors.emplace(Place, It->second);
    else
      Facts.Clobbered.push_back(Place);
  }
  for (const ValueDecl *Module : T.writtenModules())
    if (const ModuleValue *Value = Exit->module(Module);
        Value && visibleToCallers(Module, Fn))
      Facts.Exit.Modules.emplace(Module, *Value);
}

FunctionFacts analyzeFunction(const FunctionDecl &Fn, TranslationUnitAnalysis &TU,
                              const State &Entry,
                              std::optional<CallContext> Context) {
  FunctionFacts Facts;
  Facts.Function = &Fn;
  Facts.Context = std::move(Context);
  ASTContext &Ctx = TU.context();
  const Stmt *Body = Fn.getBody();
  // Where the compiler recovered from errors, a move or an assignment may
  // be what was lost: no facts, no findings.
  if (!Body || utils::containsErrors(*Body))
    return Facts;
  CFG::BuildOptions Options;
  Options.AddInitializers = true;
  Options.AddCXXDefaultInitExprInCtors = true;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(&Fn, const_cast<Stmt *>(Body), &Ctx, Options);
  if (!Graph)
    return Facts;

  LocalVariables Locals(*Body, Ctx);
  LiveLocals Live(*Graph, *Body);
  CallSites Calls(TU, Facts.Context);
  Transfer T(Ctx, Locals, Calls);
  auto Interpret = [&](const CFGBlock &Block, State &S) {
    T.block(Block, S);
    Live.forgetDead(Block, S);
  };

  Facts.Returned = TensorValue::emptySequence();
  T.recordInto(&Facts);
  SolverResult First = firstIteration(*Graph, Entry, Interpret);
  llvm::DenseMap<const Expr *, TensorValue> FirstValues = std::move(Facts.Values);
  Facts.Values.clear();

  T.recordInto(nullptr);
  SolverResult Fixpoint = solveToFixpoint(*Graph, Entry, Interpret, &First);
  if (Fixpoint.BoundHit) {
    FunctionFacts Stopped;
    Stopped.Function = &Fn;
    Stopped.Context = std::move(Facts.Context);
    Stopped.BoundHit = true;
    return Stopped;
  }

  T.recordInto(&Facts);
  for (const CFGBlock *Block : PostOrderCFGView(Graph.get())) {
    auto It = Fixpoint.Entry.find(Block);
    if (It == Fixpoint.Entry.end())
      continue;
    State Current = It->second;
    T.block(*Block, Current);
  }
  T.recordInto(nullptr);

  // Where the fixpoint does not know a value, the first iteration's is what
  // a real run sees on that iteration.
  for (const auto &[E, Value] : FirstValues)
    if (Facts.Values.try_emplace(E, Value).second)
      Facts.FirstIterationOnly.insert(E);
  if (Facts.Returned.EmptySequence)
    Facts.Returned = TensorValue::unknown();
  Facts.UsesAccelerator = llvm::any_of(Facts.Values, [](const auto &Entry) {
    return Entry.second.Device == Place::Accelerator;
  });
  auto Exit = Fixpoint.Entry.find(&Graph->getExit());
  summarizeExit(Fn, Exit == Fixpoint.Entry.end() ? nullptr : &Exit->second, T,
                Facts);
  Facts.InLoop = loopStatements(*Graph);
  return Facts;
}

} // namespace clang::tidy::torch_tidy::flow
