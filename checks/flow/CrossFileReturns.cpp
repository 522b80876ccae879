//===--- CrossFileReturns.cpp - Tensors returned across translation units -===//
//
// A function defined in one file returns tensors (a pair, a tuple, an
// aggregate's fields) on the CPU; a caller in another file moves some of
// them. The callee's file supplies "f returns on the CPU" (per field of an
// aggregate); the caller's file analyses each of its functions that call
// such a function once more under the hypothesis that it does, and what it
// finds only then holds if another file supplies that fact.
//
//===----------------------------------------------------------------------===//

#include "TranslationUnitAnalysis.h"
#include "api/TensorMethods.h"
#include "api/TorchApi.h"
#include "utils/RecordedPlace.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::torch_tidy::flow {

/// How many return hypotheses one function is analysed under: each costs an
/// analysis of the function; calls beyond stay unknown (quiet).
static constexpr unsigned MaxReturnHypotheses = 8;

/// Whether what \p Fn returns can be summarised for other translation units
/// by its name: the user's own function, not virtual, returning tensors.
static bool returnsSummarisable(const FunctionDecl &Fn, const ASTContext &Ctx) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Fn);
  return Fn.isExternallyVisible() && !api::isLibTorchInternal(&Fn) &&
         !Fn.isInStdNamespace() &&
         !Ctx.getSourceManager().isInSystemHeader(Fn.getLocation()) &&
         !(Method && Method->isVirtual()) && !isa<CXXConstructorDecl>(Fn) &&
         api::isTensorValued(Fn.getReturnType());
}

/// The tensor fields of the user's aggregate \p Type, by name.
static std::vector<const FieldDecl *> tensorFields(QualType Type) {
  std::vector<const FieldDecl *> Fields;
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record || Record->isInStdNamespace() || api::isLibTorchDecl(Record))
    return Fields;
  for (const FieldDecl *Field : Record->fields())
    if (Field->getDeclName().isIdentifier() &&
        api::isTensorValued(Field->getType()))
      Fields.push_back(Field);
  return Fields;
}

TensorValue TranslationUnitAnalysis::assumedReturn(const CallExpr &Call,
                                                   llvm::StringRef Part) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Hypothesis || Hypothesis->What != Need::ReturnsCpu ||
      Hypothesis->Part != Part || !Callee ||
      Hypothesis->Entity != entityOf(*Callee))
    return TensorValue::unknown();
  TensorValue Value = TensorValue::cpu();
  Value.Source = &Call;
  // A pair, tuple or struct of tensors a data helper returns is a batch:
  // its target left on the CPU is the batch's, as a loader's would be.
  if (api::holdsTensors(Callee->getReturnType()))
    Value.From = Origin::DataBatch;
  return Value;
}

std::vector<const FunctionDecl *> TranslationUnitAnalysis::mainFileRoots() const {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Functions;
  for (const auto &[Fn, Facts] : Roots)
    if (SM.isInMainFile(Fn->getLocation()) && !Fn->isTemplateInstantiation())
      Functions.push_back(Fn);
  llvm::sort(Functions, [&](const FunctionDecl *A, const FunctionDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  return Functions;
}

void TranslationUnitAnalysis::supplyReturns(const FunctionDecl &Fn,
                                            const FunctionFacts &Facts,
                                            std::optional<Need> Condition) {
  CrossFileRecorder *Recorder = crossFileRecorder();
  if (!Recorder || !returnsSummarisable(Fn, Ctx))
    return;
  const FunctionFacts *Root = Condition ? &root(Fn) : nullptr;
  auto Supply = [&](const TensorValue &Value, const TensorValue *Before,
                    llvm::StringRef Part) {
    if (Value.Device != Place::Cpu || (Before && Before->Device == Place::Cpu))
      return;
    SourceLocation Loc = Value.Source ? Value.Source->getBeginLoc()
                                      : Fn.getLocation();
    if (auto At = utils::recordedPlace(Loc, Ctx.getSourceManager()))
      Recorder->supply({Need::ReturnsCpu, entityOf(Fn), 0, "", Part.str()},
                       *At,
                       "'" + Fn.getNameAsString() + "' returns " +
                           (!Part.empty() ? "'" + Part.str() + "'"
                            : api::holdsTensors(Fn.getReturnType())
                                ? std::string("its tensors")
                                : std::string("its tensor")) +
                           " on the CPU, from here",
                       Condition);
  };
  Supply(Facts.Returned, Root ? &Root->Returned : nullptr, "");
  for (const auto &[Field, Value] : Facts.ReturnedFields)
    if (Field->getDeclName().isIdentifier()) {
      const TensorValue *Before = nullptr;
      if (Root)
        if (auto It = Root->ReturnedFields.find(Field);
            It != Root->ReturnedFields.end())
          Before = &It->second;
      Supply(Value, Before, Field->getName());
    }
}

namespace {

/// The functions another translation unit defines whose returns a body
/// uses, in the order of their first call.
struct ReturnsFromElsewhere : RecursiveASTVisitor<ReturnsFromElsewhere> {
  const ASTContext &Ctx;
  std::vector<const FunctionDecl *> Callees;

  explicit ReturnsFromElsewhere(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && !Callee->isDefined() && returnsSummarisable(*Callee, Ctx) &&
        !llvm::is_contained(Callees, Callee->getCanonicalDecl()))
      Callees.push_back(Callee->getCanonicalDecl());
    return true;
  }
};

} // namespace

void TranslationUnitAnalysis::returnHypotheses() {
  for (const FunctionDecl *Fn : mainFileRoots()) {
    if (Fn->isDependentContext() || !Fn->getBody())
      continue;
    ReturnsFromElsewhere Finder(Ctx);
    Finder.TraverseStmt(Fn->getBody());
    unsigned Analysed = 0;
    for (const FunctionDecl *Callee : Finder.Callees) {
      std::vector<std::string> Parts = {""};
      for (const FieldDecl *Field : tensorFields(Callee->getReturnType()))
        Parts.push_back(Field->getName().str());
      for (const std::string &Part : Parts) {
        if (Analysed++ >= MaxReturnHypotheses)
          break;
        Need Condition{Need::ReturnsCpu, entityOf(*Callee), 0, "", Part};
        if (const FunctionFacts *Facts =
                analyzeHypothesis(*Fn, rootEntry(*Fn), std::nullopt, Condition))
          supplyReturns(*Fn, *Facts, Condition);
      }
    }
  }
}

} // namespace clang::tidy::torch_tidy::flow
