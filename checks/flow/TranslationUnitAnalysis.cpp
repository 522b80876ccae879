//===--- TranslationUnitAnalysis.cpp - The dataflow of one TU -------------===//

#include "TranslationUnitAnalysis.h"
#include "DeviceNames.h"
#include "Evaluator.h"
#include "FunctionAnalysis.h"
#include "LocalVariables.h"
#include "api/TensorMethods.h"
#include "utils/AstHelpers.h"
#include "utils/RecordedPlace.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CallGraph.h"
#include "llvm/ADT/SCCIterator.h"

namespace clang::tidy::torch_tidy::flow {

namespace {

// Each clang-tidy worker thread analyses one translation unit at a time. The
// address of an ASTContext cannot tell translation units apart (the next may
// reuse a freed one's): reset() forgets the previous one.
thread_local std::unique_ptr<TranslationUnitAnalysis> Current;

} // namespace

llvm::ArrayRef<Decl *> TranslationUnitAnalysis::userDeclarations() {
  if (!UserDeclarations) {
    UserDeclarations.emplace();
    const SourceManager &SM = Ctx.getSourceManager();
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())) &&
          !api::isLibTorchDecl(D))
        UserDeclarations->push_back(D);
  }
  return *UserDeclarations;
}

const llvm::DenseSet<const FieldDecl *> &
TranslationUnitAnalysis::fieldsAssignedFromOutside() {
  if (!AssignedFromOutside)
    AssignedFromOutside = findFieldsAssignedFromOutside(userDeclarations());
  return *AssignedFromOutside;
}

TranslationUnitAnalysis &TranslationUnitAnalysis::of(ASTContext &Ctx) {
  if (!Current || &Current->Ctx != &Ctx)
    Current.reset(new TranslationUnitAnalysis(Ctx));
  return *Current;
}

void TranslationUnitAnalysis::reset() { Current.reset(); }

static const FunctionFacts &empty() {
  static const FunctionFacts Empty;
  return Empty;
}

const FunctionFacts &TranslationUnitAnalysis::analyze(
    const FunctionDecl &Fn, State Entry, std::optional<CallContext> Context) {
  if (!InProgress.insert(&Fn).second)
    return empty(); // recursion: no summary
  auto Facts = std::make_unique<FunctionFacts>(
      analyzeFunction(Fn, *this, Entry, std::move(Context)));
  InProgress.erase(&Fn);
  BoundHits += Facts->BoundHit;
  const FunctionFacts &Result = *Facts;
  Owned.push_back(std::move(Facts));
  return Result;
}

/// The fields a method of \p Record sees on its own: what the class keeps
/// in them across methods. A constructor starts from nothing.
static bool seesClassFacts(const FunctionDecl &Fn) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Fn);
  return Method && Method->isInstance() && !Method->getParent()->isLambda() &&
         !isa<CXXConstructorDecl, CXXDestructorDecl>(Method);
}

State TranslationUnitAnalysis::rootEntry(const FunctionDecl &Fn) {
  if (seesClassFacts(Fn))
    return classFacts(*cast<CXXMethodDecl>(Fn).getParent()).Fields;
  return State();
}

const FunctionFacts &TranslationUnitAnalysis::root(const FunctionDecl &Fn) {
  if (auto It = Roots.find(&Fn); It != Roots.end())
    return *It->second;
  const FunctionFacts &Facts = analyze(Fn, rootEntry(Fn), std::nullopt);
  if (&Facts != &empty())
    Roots[&Fn] = &Facts;
  return Facts;
}

const FunctionFacts &TranslationUnitAnalysis::inContext(const FunctionDecl &Fn,
                                                        State Entry,
                                                        CallContext Context,
                                                        bool Report) {
  auto Key = std::make_pair(&Fn, contextKey(Entry));
  auto It = InContext.find(Key);
  const FunctionFacts *Facts =
      It != InContext.end() ? It->second
                            : &analyze(Fn, std::move(Entry), std::move(Context));
  if (Facts == &empty())
    return *Facts;
  InContext[Key] = Facts;
  if (Report && Reported.insert(Facts).second)
    ContextOrder.push_back({Facts, Hypothesis});
  return *Facts;
}

State TranslationUnitAnalysis::movedMembers(const CXXRecordDecl &Module,
                                            const ModuleValue &Moved) {
  State Members;
  const api::Registrations &Registered = registrations(Module);
  for (const FieldDecl *Field : Module.fields()) {
    if (!Registered.Fields.count(Field))
      continue;
    if (api::heldModule(Field->getType()))
      Members.Modules[Field] = Moved;
    else if (api::isTensorType(Field->getType()) &&
             !Registered.AssignedAfterConstruction.count(Field))
      Members.Tensors[Location(Field)] = onModuleDevice(Moved);
  }
  return Members;
}

/// What a method of a module class moved to \p Moved sees: its registered
/// members there, and, in forward(), the inputs of a program that works.
static State movedClassEntry(const CXXMethodDecl &Method, State Members,
                             const ModuleValue &Moved) {
  if (api::isForwardMethod(&Method))
    for (const ParmVarDecl *Param : Method.parameters())
      if (api::isTensorType(Param->getType().getNonReferenceType()) ||
          api::holdsTensors(Param->getType().getNonReferenceType()))
        Members.Tensors[Location(Param)] = onModuleDevice(Moved);
  return Members;
}

const FunctionFacts *
TranslationUnitAnalysis::movedClassContext(const FunctionDecl &Fn) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&Fn);
  if (!Method || !Method->isInstance() ||
      isa<CXXConstructorDecl, CXXDestructorDecl>(Method) ||
      !api::isModuleClass(Method->getParent()))
    return nullptr;
  const ModuleValue *Moved = movedTo(*Method->getParent());
  if (!Moved)
    return nullptr;
  if (auto It = MovedClass.find(&Fn); It != MovedClass.end())
    return It->second;
  State Entry = movedClassEntry(
      *Method, movedMembers(*Method->getParent(), *Moved), *Moved);
  CallContext Context;
  Context.ModuleClass = Method->getParent();
  Context.ModuleDevice = onModuleDevice(*Moved);
  const FunctionFacts &Facts = analyze(Fn, std::move(Entry), std::move(Context));
  return MovedClass[&Fn] = &Facts == &empty() ? nullptr : &Facts;
}

const api::Registrations &
TranslationUnitAnalysis::registrations(const CXXRecordDecl &Module) {
  auto It = Registered.find(&Module);
  if (It == Registered.end())
    It = Registered
             .try_emplace(&Module, api::collectRegistrations(Module, Ctx))
             .first;
  return It->second;
}

const ClassFacts &TranslationUnitAnalysis::classFacts(const CXXRecordDecl &Record) {
  static const ClassFacts None;
  auto [It, Inserted] = Classes.try_emplace(&Record);
  if (!Inserted)
    return It->second ? *It->second : None; // null while being computed
  auto Facts = std::make_unique<ClassFacts>(computeClassFacts(Record, *this));
  return *(Classes[&Record] = std::move(Facts));
}

namespace {

/// The translation unit's `Module::to` calls and the classes they move.
struct MoveFinder : RecursiveASTVisitor<MoveFinder> {
  ASTContext &Ctx;
  llvm::DenseMap<const CXXRecordDecl *, ModuleValue> &Moved;
  /// The classes moved, in the order of their first move.
  std::vector<const CXXRecordDecl *> MoveSites;
  const Stmt *Body = nullptr;

  MoveFinder(ASTContext &Ctx,
             llvm::DenseMap<const CXXRecordDecl *, ModuleValue> &Moved)
      : Ctx(Ctx), Moved(Moved) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *Fn) { return traverseBody(Fn); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *Fn) { return traverseBody(Fn); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *Fn) {
    return traverseBody(Fn);
  }

  bool traverseBody(FunctionDecl *Fn) {
    if (!Fn->hasBody() || Fn->isDependentContext())
      return true;
    const Stmt *Outer = Body;
    Body = Fn->getBody();
    TraverseStmt(Fn->getBody());
    Body = Outer;
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (!Body || !api::isModuleTo(*Call) || Call->getNumArgs() == 0)
      return true;
    const CXXRecordDecl *Module = api::movedModuleClass(*Call);
    if (!Module)
      return true;
    // What the device argument may be, whatever the state: a constant, a
    // fixed local, or something that may be an accelerator.
    LocalVariables Locals(*Body, Ctx);
    State Nothing;
    Evaluator Eval(Ctx, Nothing, Locals);
    DeviceValue Target = Eval.device(Call->getArg(0));
    if (Target.Device == Place::Accelerator &&
        Moved.try_emplace(Module, ModuleValue{Place::Accelerator, Target, Call})
            .second)
      MoveSites.push_back(Module);
    return true;
  }
};

} // namespace

void TranslationUnitAnalysis::findMovedClasses() {
  Moved.emplace();
  MoveFinder Finder(Ctx, *Moved);
  for (Decl *D : userDeclarations())
    Finder.TraverseDecl(D);
  if (CrossFileRecorder *Recorder = crossFileRecorder();
      Recorder && namesAccelerator())
    for (const CXXRecordDecl *Module : Finder.MoveSites) {
      const ModuleValue &Value = Moved->find(Module)->second;
      if (auto At = utils::recordedPlace(Value.MovedAt->getBeginLoc(),
                                         Ctx.getSourceManager()))
        Recorder->supply({Need::ModuleMoved, entityOf(*Module)}, *At,
                         "'" + api::moduleName(*Module) + "' is moved to " +
                             describeDevice(onModuleDevice(Value), Ctx) +
                             " here",
                         std::nullopt);
    }
  // Module::to moves the submodules a module registers, recursively.
  std::vector<const CXXRecordDecl *> Work;
  for (const auto &Entry : *Moved)
    Work.push_back(Entry.first);
  while (!Work.empty()) {
    const CXXRecordDecl *Module = Work.back();
    Work.pop_back();
    ModuleValue Value = Moved->lookup(Module);
    for (const CXXRecordDecl *Sub : registrations(*Module).Submodules)
      if (Moved->try_emplace(Sub, Value).second)
        Work.push_back(Sub);
  }
}

const ModuleValue *TranslationUnitAnalysis::movedTo(const CXXRecordDecl &Module) {
  if (!Moved)
    findMovedClasses();
  auto It = Moved->find(&Module);
  return It == Moved->end() ? nullptr : &It->second;
}

void TranslationUnitAnalysis::findRecursion() {
  Recursive.emplace();
  CallGraph Graph;
  for (Decl *D : userDeclarations())
    Graph.addToCallGraph(D);
  for (auto SCC = llvm::scc_begin(&Graph); !SCC.isAtEnd(); ++SCC) {
    const std::vector<CallGraphNode *> &Nodes = *SCC;
    bool Cycle = Nodes.size() > 1 || SCC.hasCycle();
    if (Cycle)
      for (const CallGraphNode *Node : Nodes)
        if (const Decl *D = Node->getDecl())
          Recursive->insert(D->getCanonicalDecl());
  }
}

const FunctionDecl *
TranslationUnitAnalysis::followedDefinition(const FunctionDecl *Fn) {
  const FunctionDecl *Definition = Fn ? Fn->getDefinition() : nullptr;
  if (!Definition || !Definition->getBody() ||
      api::isLibTorchInternal(Definition) ||
      Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return nullptr;
  // A virtual call may run an override the analysis does not see.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
      !Method->getParent()->hasAttr<FinalAttr>())
    return nullptr;
  if (!Recursive)
    findRecursion();
  if (Recursive->count(Definition->getCanonicalDecl()))
    return nullptr;
  return Definition;
}

std::string TranslationUnitAnalysis::entityOf(const FunctionDecl &Fn) {
  if (!Names)
    Names = std::make_unique<ASTNameGenerator>(Ctx);
  return Names->getName(&Fn);
}

std::string TranslationUnitAnalysis::entityOf(const CXXRecordDecl &Module) const {
  return Ctx.getRecordType(&Module).getCanonicalType().getAsString();
}

void TranslationUnitAnalysis::supplyCall(const CallExpr &Call,
                                         const FunctionDecl &Callee,
                                         unsigned Param, const Operand &Arg) {
  // Under a hypothesis (this file's function given an accelerator tensor by
  // another file), the call supplies its fact only if that holds: a link of
  // a chain across files. A call that supplies it anyway needs no link.
  CrossFileRecorder *Recorder = crossFileRecorder();
  if (!Recorder || (!Hypothesis && !namesAccelerator()) ||
      !Callee.isExternallyVisible() ||
      SuppliedCalls.count({&Call, Param, std::nullopt}) ||
      !SuppliedCalls.insert({&Call, Param, Hypothesis}).second)
    return;
  if (auto At = utils::recordedPlace(Call.getBeginLoc(), Ctx.getSourceManager())) {
    std::string Argument = "a tensor";
    if (auto Text = utils::sourceText(*Arg.E, Ctx))
      Argument = "'" + *Text + "'";
    Recorder->supply({Need::CalledWithAccelerator, entityOf(Callee), Param},
                     *At,
                     "'" + Callee.getNameAsString() + "' is called here with " +
                         Argument + " on " + describeDevice(Arg.Value, Ctx),
                     Hypothesis);
  }
}

void TranslationUnitAnalysis::supplyModuleCall(const CallExpr &Call,
                                               const FunctionDecl &Callee,
                                               unsigned Param, const Expr &Arg,
                                               const ModuleValue &Value) {
  CrossFileRecorder *Recorder = crossFileRecorder();
  // What a hypothesis finds holds only if another file supplies it.
  if (!Recorder || Hypothesis || !namesAccelerator() ||
      !Callee.isExternallyVisible() ||
      !SuppliedCalls.insert({&Call, Param, std::nullopt}).second)
    return;
  auto At = utils::recordedPlace(Call.getBeginLoc(), Ctx.getSourceManager());
  if (!At)
    return;
  std::string Module = "a module";
  if (auto Text = utils::sourceText(Arg, Ctx))
    Module = "'" + *Text + "'";
  bool Moved = Value.Device == Place::Accelerator;
  Recorder->supply(
      {Moved ? Need::CalledWithMovedModule : Need::CalledWithCpuModule,
       entityOf(Callee), Param},
      *At,
      "'" + Callee.getNameAsString() + "' is called here with " + Module +
          (Moved ? " moved to " + describeDevice(onModuleDevice(Value), Ctx)
                 : ", built on the CPU and never moved"),
      std::nullopt);
}

void TranslationUnitAnalysis::supplyRegistrations() {
  // Module::to moves what a module registers: another file may move a
  // module whose registrations only this file shows.
  CrossFileRecorder *Recorder = crossFileRecorder();
  for (const auto &[Fn, Facts] : Roots) {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(Fn);
    if (!Ctor || !api::isModuleClass(Ctor->getParent()) ||
        !Ctx.getSourceManager().isInMainFile(Ctor->getLocation()))
      continue;
    const CXXRecordDecl &Module = *Ctor->getParent();
    for (const CXXRecordDecl *Sub : registrations(Module).Submodules)
      if (auto At = utils::recordedPlace(Ctor->getLocation(),
                                         Ctx.getSourceManager()))
        Recorder->supply({Need::RegistersSubmodule, entityOf(Module), 0,
                          entityOf(*Sub)},
                         *At, "", std::nullopt);
  }
}

const FunctionFacts *TranslationUnitAnalysis::analyzeHypothesis(
    const FunctionDecl &Fn, State Entry, std::optional<CallContext> Context,
    Need Condition) {
  Hypothesis = Condition;
  const FunctionFacts &Facts =
      analyze(Fn, std::move(Entry), std::move(Context));
  Hypothesis.reset();
  if (&Facts == &empty())
    return nullptr;
  Hypotheses->push_back({&Facts, Condition});
  return &Facts;
}

const std::vector<TranslationUnitAnalysis::ContextEntry> &
TranslationUnitAnalysis::hypotheses() {
  if (Hypotheses)
    return *Hypotheses;
  Hypotheses.emplace();
  if (!crossFileRecorder())
    return *Hypotheses;
  // What this file supplies to others: its moves, registrations and what
  // its functions return on the CPU.
  if (!Moved)
    findMovedClasses();
  supplyRegistrations();
  for (const FunctionDecl *Fn : mainFileRoots())
    supplyReturns(*Fn, *Roots[Fn], std::nullopt);
  const SourceManager &SM = Ctx.getSourceManager();
  // The roots as analysed so far: hypotheses add none.
  std::vector<const FunctionDecl *> Functions;
  for (const auto &[Fn, Facts] : Roots)
    if (SM.isInMainFile(Fn->getLocation()) && Fn->isExternallyVisible() &&
        !Fn->isTemplateInstantiation())
      Functions.push_back(Fn);
  // An accelerator that another file names: "an accelerator (which may be
  // a GPU)" here, its own words in the note at its call.
  TensorValue Elsewhere;
  Elsewhere.Device = Place::Accelerator;
  Elsewhere.MaybeAccelerator = true;
  for (const FunctionDecl *Fn : Functions) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
    if (Method && Method->isInstance() &&
        !isa<CXXConstructorDecl, CXXDestructorDecl>(Method) &&
        api::isModuleClass(Method->getParent()) &&
        !movedTo(*Method->getParent()) &&
        Method->getParent()->isExternallyVisible()) {
      ModuleValue Moved{Place::Accelerator, {Place::Accelerator, nullptr, true},
                        nullptr};
      State Entry = movedClassEntry(
          *Method, movedMembers(*Method->getParent(), Moved), Moved);
      CallContext Context;
      Context.ModuleClass = Method->getParent();
      analyzeHypothesis(*Fn, std::move(Entry), std::move(Context),
                        {Need::ModuleMoved, entityOf(*Method->getParent())});
      continue;
    }
    if (isa<CXXConstructorDecl, CXXDestructorDecl>(Fn))
      continue;
    for (const ParmVarDecl *Param : Fn->parameters()) {
      QualType Type = Param->getType().getNonReferenceType();
      if (api::heldModule(Type)) {
        // Moved by the caller, or built there and never moved.
        ModuleValue Moved{Place::Accelerator,
                          {Place::Accelerator, nullptr, true}, nullptr};
        ModuleValue OnCpu{Place::Cpu, {}, nullptr};
        for (const auto &[Value, Kind] :
             {std::pair(Moved, Need::CalledWithMovedModule),
              std::pair(OnCpu, Need::CalledWithCpuModule)}) {
          State Entry;
          if (Method && Method->isInstance())
            Entry = classFacts(*Method->getParent()).Fields;
          Entry.Modules[Param] = Value;
          analyzeHypothesis(*Fn, std::move(Entry), CallContext(),
                            {Kind, entityOf(*Fn), Param->getFunctionScopeIndex()});
        }
        continue;
      }
      if (!api::isTensorType(Type) && !api::holdsTensors(Type))
        continue;
      State Entry;
      if (Method && Method->isInstance())
        Entry = classFacts(*Method->getParent()).Fields;
      Entry.Tensors[Location(Param)] = Elsewhere;
      analyzeHypothesis(*Fn, std::move(Entry), CallContext(),
                        {Need::CalledWithAccelerator, entityOf(*Fn),
                         Param->getFunctionScopeIndex()});
    }
  }
  returnHypotheses();
  return *Hypotheses;
}

bool TranslationUnitAnalysis::namesAccelerator() {
  if (NamesAccelerator)
    return *NamesAccelerator;
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager *SM;
    bool Found = false;
    bool VisitStmt(Stmt *S) {
      if (!Found && SM->isInMainFile(SM->getExpansionLoc(S->getBeginLoc())))
        Found = api::mentionsAccelerator(*S);
      return !Found;
    }
  } Finder;
  Finder.SM = &Ctx.getSourceManager();
  for (Decl *D : utils::scopeDeclarations(Ctx)) {
    if (Finder.Found)
      break;
    if (Finder.SM->isInMainFile(Finder.SM->getExpansionLoc(D->getLocation())))
      Finder.TraverseDecl(D);
  }
  NamesAccelerator = Finder.Found;
  if (CrossFileRecorder *Recorder = crossFileRecorder(); Recorder && Finder.Found)
    if (auto At = utils::recordedPlace(
            Ctx.getSourceManager().getLocForStartOfFile(
                Ctx.getSourceManager().getMainFileID()),
            Ctx.getSourceManager()))
      Recorder->supply({Need::ProgramNamesAccelerator, ""}, *At, "",
                       std::nullopt);
  return Finder.Found;
}

} // namespace clang::tidy::torch_tidy::flow
