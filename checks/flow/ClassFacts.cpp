//===--- ClassFacts.cpp - What a class's tensor fields hold across methods ===//

#include "ClassFacts.h"
#include "Evaluator.h"
#include "LocalVariables.h"
#include "TranslationUnitAnalysis.h"
#include "utils/AstHelpers.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::torch_tidy::flow {

llvm::DenseSet<const FieldDecl *>
findFieldsAssignedFromOutside(llvm::ArrayRef<Decl *> Declarations) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseSet<const FieldDecl *> Found;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (!Op->isAssignmentOp() || Op->getNumArgs() < 1)
        return true;
      const auto *Member =
          dyn_cast<MemberExpr>(utils::ignoreTemporaries(Op->getArg(0)));
      if (Member && !isa<CXXThisExpr>(Member->getBase()->IgnoreImplicit()))
        if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
          Found.insert(Field);
      return true;
    }
  } Finder;
  for (Decl *D : Declarations)
    Finder.TraverseDecl(D);
  return std::move(Finder.Found);
}

/// What the in-class initialisers give the fields (a class whose only
/// constructors are the implicit ones).
static State inClassInitializers(llvm::ArrayRef<const FieldDecl *> Fields,
                                 ASTContext &Ctx) {
  State Out;
  for (const FieldDecl *Field : Fields) {
    const Expr *Init = Field->getInClassInitializer();
    if (!Init) {
      Out.Tensors[Location(Field)] = TensorValue::emptySequence();
      continue;
    }
    LocalVariables Locals(*Init, Ctx);
    State Nothing;
    Evaluator Eval(Ctx, Nothing, Locals);
    if (TensorValue Value = Eval.tensor(Init); !Value.isUnknown())
      Out.Tensors[Location(Field)] = Value;
  }
  return Out;
}

/// Joins what \p Facts leaves in the fields into \p Into.
static void joinWrites(const FunctionFacts &Facts, State &Into) {
  for (auto &[Place, Value] : Into.Tensors) {
    if (llvm::is_contained(Facts.Clobbered, Place))
      Value = TensorValue::unknown();
    else if (auto It = Facts.Exit.Tensors.find(Place);
             It != Facts.Exit.Tensors.end())
      Value = join(Value, It->second);
  }
}

ClassFacts computeClassFacts(const CXXRecordDecl &Record,
                             TranslationUnitAnalysis &TU) {
  ClassFacts Facts;
  if (!Record.hasDefinition() || Record.isLambda() ||
      api::isModuleClass(&Record) || api::isLibTorchInternal(&Record))
    return Facts;
  std::vector<const FieldDecl *> Fields;
  for (const FieldDecl *Field : Record.fields())
    if (api::isTensorValued(Field->getType()))
      Fields.push_back(Field);
  if (Fields.empty())
    return Facts;

  // After construction: the join over the constructors, each of which must
  // be seen (a copy keeps another object's values).
  State Constructed;
  for (const FieldDecl *Field : Fields)
    Constructed.Tensors[Location(Field)] = TensorValue::emptySequence();
  bool SeenConstructor = false;
  for (const CXXConstructorDecl *Ctor : Record.ctors()) {
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted())
      continue;
    const FunctionDecl *Definition = Ctor->getDefinition();
    if (!Definition || !Definition->getBody()) {
      if (Ctor->isImplicit())
        continue;
      return Facts; // defined in another translation unit
    }
    joinWrites(TU.root(*Definition), Constructed);
    SeenConstructor = true;
  }
  if (!SeenConstructor)
    Constructed = inClassInitializers(Fields, TU.context());

  // Any other method may write them too, seen with their constructed values.
  State Fields2 = Constructed;
  for (const CXXMethodDecl *Method : Record.methods()) {
    if (!Method->isInstance() || Method->isConst() ||
        isa<CXXConstructorDecl, CXXDestructorDecl>(Method) ||
        Method->isCopyAssignmentOperator() || Method->isMoveAssignmentOperator())
      continue;
    const FunctionDecl *Definition = Method->getDefinition();
    if (!Definition || !Definition->getBody() ||
        Definition->isDependentContext())
      continue;
    joinWrites(TU.inContext(*Definition, Constructed, CallContext(),
                            /*Report=*/false),
               Fields2);
  }
  for (const FieldDecl *Field : Fields)
    if (TU.fieldsAssignedFromOutside().contains(Field))
      Fields2.Tensors.erase(Location(Field));
  for (const auto &[Place, Value] : Fields2.Tensors)
    if (!Value.isUnknown() && !Value.EmptySequence)
      Facts.Fields.Tensors.emplace(Place, Value);
  return Facts;
}

} // namespace clang::tidy::torch_tidy::flow
