//===--- IterationNeeds.cpp - Whether an iteration needs a value ----------===//

#include "IterationNeeds.h"
#include "AstHelpers.h"
#include "LoopIterations.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::torch_tidy::utils {

/// How many stores, calls and returns a value is followed through.
static constexpr unsigned MaxDepth = 6;

IterationNeeds::IterationNeeds(const Stmt &Loop, ASTContext &Ctx,
                               LibraryUse Library)
    : Loop(Loop), Ctx(Ctx), Library(Library),
      LoopFunction(enclosingFunction(Loop, Ctx)) {}

static const Stmt *parentOf(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

static bool isStandardLibrary(const Decl &D) {
  for (const DeclContext *Context = D.getDeclContext(); Context;
       Context = Context->getParent())
    if (Context->isStdNamespace())
      return true;
  return false;
}

static bool isOutputStream(const CXXRecordDecl *Record) {
  if (!Record || !Record->hasDefinition())
    return false;
  if (Record->getDeclName().isIdentifier() &&
      Record->getName() == "basic_ostream" && isStandardLibrary(*Record))
    return true;
  return llvm::any_of(Record->bases(), [](const CXXBaseSpecifier &Base) {
    return isOutputStream(Base.getType()->getAsCXXRecordDecl());
  });
}

/// `out << v` on a std::ostream (a file, a string stream, std::cout).
static bool isStreamWrite(const CXXOperatorCallExpr &Op) {
  return Op.getOperator() == OO_LessLess && Op.getNumArgs() == 2 &&
         isOutputStream(
             Op.getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl());
}

/// Whether the stream \p Op writes to is std::cout, std::cerr or std::clog.
static bool writesToTerminal(const CXXOperatorCallExpr &Op) {
  const Expr *Stream = Op.getArg(0)->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<CXXOperatorCallExpr>(Stream)) {
    if (!isStreamWrite(*Inner))
      break;
    Stream = Inner->getArg(0)->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Stream);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  static const llvm::StringRef Terminals[] = {"cout",  "cerr",  "clog",
                                              "wcout", "wcerr", "wclog"};
  return Var && Var->getDeclName().isIdentifier() &&
         isStandardLibrary(*Var) && llvm::is_contained(Terminals, Var->getName());
}

/// C's writes to the standard output or error: `printf(...)`, `puts(s)`,
/// `fprintf(stderr, ...)`.
static bool printsToTerminal(const CallExpr &Call) {
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (!Fn || !Fn->isExternC() || !Fn->getDeclName().isIdentifier())
    return false;
  llvm::StringRef Name = Fn->getName();
  if (Name == "printf" || Name == "puts")
    return true;
  unsigned StreamArg = Name == "fprintf" ? 0 : Name == "fputs" ? 1 : ~0u;
  if (StreamArg >= Call.getNumArgs())
    return false;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Call.getArg(StreamArg)->IgnoreParenImpCasts());
  return Ref && Ref->getDecl()->getDeclName().isIdentifier() &&
         (Ref->getDecl()->getName() == "stdout" ||
          Ref->getDecl()->getName() == "stderr");
}

/// A function of the standard or C library that only computes from its
/// arguments (`std::to_string`, `std::max`, `exp`): none is a pointer or a
/// reference it may write through, and it returns a value.
static bool computesOnly(const FunctionDecl &Fn) {
  if (Fn.getReturnType()->isVoidType())
    return false;
  return llvm::none_of(Fn.parameters(), [](const ParmVarDecl *Param) {
    QualType Type = Param->getType();
    return Type->isPointerType() ||
           (Type->isReferenceType() &&
            !Type.getNonReferenceType().isConstQualified());
  });
}

/// The parameter of \p Definition that \p Call passes \p Arg for; null for
/// the object of a method.
static const ParmVarDecl *parameterFor(const CallExpr &Call, const Expr &Arg,
                                       const FunctionDecl &Definition) {
  bool ObjectFirst = isa<CXXOperatorCallExpr>(Call) &&
                     isa<CXXMethodDecl>(Definition) &&
                     cast<CXXMethodDecl>(Definition).isInstance();
  for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
    if (Call.getArg(I) != &Arg)
      continue;
    if (ObjectFirst && I == 0)
      return nullptr;
    unsigned Index = I - ObjectFirst;
    return Index < Definition.getNumParams() ? Definition.getParamDecl(Index)
                                             : nullptr;
  }
  return nullptr;
}

/// The condition of a branch or a loop.
static const Stmt *conditionOf(const Stmt &S) {
  if (const auto *If = dyn_cast<IfStmt>(&S))
    return If->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(&S))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(&S))
    return Do->getCond();
  if (const auto *For = dyn_cast<ForStmt>(&S))
    return For->getCond();
  if (const auto *Switch = dyn_cast<SwitchStmt>(&S))
    return Switch->getCond();
  return nullptr;
}

/// Whether \p Ref only receives a value there: the target of an assignment
/// (`x = v`, `total += v`, `++n`, `s.total += v`), a container filled
/// (`v.push_back(x)`, `v.clear()`, `m[k] = v`, `v[i].items.push_back(x)`).
static bool isWrite(const Expr &Ref, ASTContext &Ctx) {
  const Stmt *Target = &Ref;
  const Stmt *Parent = parentOf(Ref, Ctx);
  // Down to the element or field written: `v[i]`, `s.total`.
  while (Parent) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent);
    const auto *Field = dyn_cast<MemberExpr>(Parent);
    if (!isa<ImplicitCastExpr, ParenExpr>(Parent) &&
        !(Op && Op->getOperator() == OO_Subscript && Op->getArg(0) == Target) &&
        !(Field && isa<FieldDecl>(Field->getMemberDecl())))
      break;
    Target = Parent;
    Parent = parentOf(*Parent, Ctx);
  }
  if (!Parent)
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(Parent))
    return Binary->isAssignmentOp() && Binary->getLHS() == Target;
  if (const auto *Unary = dyn_cast<UnaryOperator>(Parent))
    return Unary->isIncrementDecrementOp();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
    return Op->isAssignmentOp() && Op->getArg(0) == Target;
  const auto *Member = dyn_cast<MemberExpr>(Parent);
  const auto *Call = Member ? dyn_cast_or_null<CXXMemberCallExpr>(
                                  parentOf(*Member, Ctx))
                            : nullptr;
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  return Method && Call->getCallee() == Member && !Method->isConst() &&
         isStandardLibrary(*Method) &&
         (Method->getReturnType()->isVoidType() || isDiscardedResult(*Call, Ctx));
}

bool IterationNeeds::needed(const Expr &Value, CallChain Chain) {
  return consumed(Value, Calls(Chain.begin(), Chain.end()), MaxDepth);
}

bool IterationNeeds::consumed(const Expr &Value, Calls Chain, unsigned Depth) {
  if (Depth == 0)
    return true;
  const Stmt *Current = &Value;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    if (Parents.empty())
      return true;
    if (const auto *Bindings = Parents[0].get<DecompositionDecl>())
      return llvm::any_of(Bindings->bindings(), [&](const BindingDecl *B) {
        return readInIteration(*B, Chain, Depth - 1);
      });
    if (const auto *Var = Parents[0].get<VarDecl>())
      return readInIteration(*Var, Chain, Depth - 1);
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return true;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
            CXXBindTemporaryExpr, ExprWithCleanups, CXXConstructExpr,
            InitListExpr, CXXStdInitializerListExpr>(Parent)) {
      Current = Parent;
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent)) {
      if (Cast->getType()->isVoidType())
        return false; // `(void)x`
      Current = Parent;
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(Parent)) {
      if (Unary->getOpcode() == UO_AddrOf)
        return true;
      Current = Parent;
      continue;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(Parent)) {
      if (Binary->isAssignmentOp())
        return Binary->getRHS() != Current ||
               stored(*Binary->getLHS(), Chain, Depth - 1);
      if (Binary->getOpcode() == BO_Comma && Binary->getLHS() == Current)
        return false;
      Current = Parent;
      continue;
    }
    if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (Conditional->getCond() == Current)
        return true; // it chooses the value
      Current = Parent;
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Parent)) {
      if (Subscript->getIdx() == Current)
        return true; // it indexes
      Current = Parent;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
      // `v.method(...)`: the value is the object of a call.
      const auto *Call =
          dyn_cast_or_null<CXXMemberCallExpr>(parentOf(*Member, Ctx));
      if (Call && Call->getCallee() == Member) {
        if (std::optional<bool> Result =
                passed(*Call, *cast<Expr>(Current), Chain, Depth))
          return *Result;
        Current = Call;
        continue;
      }
      Current = Parent; // a field of it
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent)) {
      if (isStreamWrite(*Op) && Op->getArg(1) == Current)
        return !writesToTerminal(*Op);
      if (Op->isAssignmentOp())
        return Op->getArg(1) != Current ||
               stored(*Op->getArg(0), Chain, Depth - 1);
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
          Op->getArg(1) == Current)
        return true; // it indexes
    }
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      if (Call->getCallee() == Current)
        return true;
      if (std::optional<bool> Result =
              passed(*Call, *cast<Expr>(Current), Chain, Depth))
        return *Result;
      Current = Parent;
      continue;
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(Parent)) {
      // Back in the caller that leads here from the loop.
      const FunctionDecl *Fn = enclosingFunction(*Return, Ctx);
      const FunctionDecl *Callee =
          Chain.empty() ? nullptr : Chain.back()->getDirectCallee();
      if (!Fn || !Callee || Callee->getCanonicalDecl() != Fn->getCanonicalDecl())
        return true;
      Current = Chain.back();
      Chain.pop_back();
      continue;
    }
    if (isa<IfStmt, WhileStmt, DoStmt, ForStmt, SwitchStmt>(Parent))
      return conditionOf(*Parent) == Current; // or a statement of its own
    // A statement of its own: the value is thrown away.
    return !isa<CompoundStmt, CaseStmt, DefaultStmt, LabelStmt,
                AttributedStmt>(Parent);
  }
}

std::optional<bool> IterationNeeds::passed(const CallExpr &Call,
                                           const Expr &Operand, Calls &Chain,
                                           unsigned Depth) {
  if (printsToTerminal(Call))
    return false;
  switch (Library(Call, Operand)) {
  case OperandUse::Needed:
    return true;
  case OperandUse::Carried:
    return std::nullopt;
  case OperandUse::Unknown:
    break;
  }
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (!Fn)
    return true;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  const SourceManager &SM = Ctx.getSourceManager();
  if (isStandardLibrary(*Fn) || SM.isInSystemHeader(Fn->getLocation())) {
    if (!Member)
      return computesOnly(*Fn) ? std::nullopt : std::optional<bool>(true);
    // A container's method: read through (`v.back()`), filled
    // (`v.push_back(x)`), sized or indexed (`v.resize(n)`, `v.at(i)`).
    if (Member->getImplicitObjectArgument() == &Operand)
      return isDiscardedResult(Call, Ctx) ? std::optional<bool>(false)
                                          : std::nullopt;
    // An integer taken by value is a size or a position (`resize(n)`,
    // `at(i)`); an element is taken by reference (`push_back(const T &)`).
    const ParmVarDecl *Param = parameterFor(Call, Operand, *Fn);
    if (!Param || (!Param->getType()->isReferenceType() &&
                   Param->getType()->isIntegralOrEnumerationType()))
      return true;
    return stored(*Member->getImplicitObjectArgument(), Chain, Depth - 1);
  }
  const FunctionDecl *Definition = nullptr;
  if (!Fn->hasBody(Definition) ||
      !SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation())))
    return true; // host code out of view: a simulator, a socket, a file
  const ParmVarDecl *Param = parameterFor(Call, Operand, *Definition);
  if (!Param)
    return true;
  Calls Inner = Chain;
  Inner.push_back(&Call);
  return readInIteration(*Param, Inner, Depth - 1);
}

bool IterationNeeds::stored(const Expr &Target, const Calls &Chain,
                            unsigned Depth) {
  // The variable, field or container the value goes to: `x`, `s.total`,
  // `v[i]`, `m.at(k)`.
  const Expr *Current = ignoreTemporaries(&Target);
  while (true) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Current)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      // Through a reference, the value lands where the analysis cannot see;
      // but the caller of the loop's function reads its reference parameter
      // (`int64_t &correct`) only once the loop is over.
      bool OutParameter = isa_and_nonnull<ParmVarDecl>(Var) &&
                          Var->getDeclContext() == LoopFunction;
      return !Var ||
             (Var->getType()->isReferenceType() && !OutParameter) ||
             readInIteration(*Var, Chain, Depth);
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Current)) {
      // A field, and the object that holds it when that is not `this`: a
      // copy of the whole object carries the value too.
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field || readInIteration(*Field, Chain, Depth))
        return true;
      if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
        return false;
      Current = ignoreTemporaries(Member->getBase());
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Current))
      Current = ignoreTemporaries(Subscript->getBase());
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Current);
             Op && Op->getOperator() == OO_Subscript)
      Current = ignoreTemporaries(Op->getArg(0));
    else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Current))
      Current = ignoreTemporaries(Call->getImplicitObjectArgument());
    else
      return true;
  }
}

bool IterationNeeds::isPeriodic(const Expr &Ref, const Calls &Chain) {
  const Stmt &InLoop = Chain.empty() ? static_cast<const Stmt &>(Ref)
                                     : *Chain.front();
  if (enclosingLoop(InLoop, Ctx) == &Loop &&
      recurrence(InLoop, Loop, Ctx) == Recurrence::Periodic)
    return true;
  const Stmt *Body = Chain.empty() ? nullptr : enclosingFunctionBody(Ref, Ctx);
  return Body && !enclosingLoop(Ref, Ctx) &&
         recurrence(Ref, *Body, Ctx) == Recurrence::Periodic;
}

bool IterationNeeds::readInIteration(const ValueDecl &Place, const Calls &Chain,
                                     unsigned Depth) {
  if (Depth == 0)
    return true;
  if (!InProgress.insert(&Place).second)
    return false; // its other reads are being looked at
  // A local of a function the loop calls is read in its body, reached
  // through the calls so far; the loop's own locals, fields and globals in
  // what the iteration runs.
  const auto *Owner = dyn_cast<FunctionDecl>(Place.getDeclContext());
  const auto *Var = dyn_cast<VarDecl>(&Place);
  bool Local = Owner && (isa<BindingDecl>(Place) || (Var && Var->isLocalVarDeclOrParm()));
  Calls Base;
  const Stmt *Root = nullptr;
  if (Local && Owner != LoopFunction) {
    Root = Owner->getBody();
    Base = Chain;
    while (!Base.empty() && (!Base.back()->getDirectCallee() ||
                             Base.back()->getDirectCallee()->getCanonicalDecl() !=
                                 Owner->getCanonicalDecl()))
      Base.pop_back();
  }
  bool Needed = false;
  auto Visit = [&](const Stmt &S, CallChain Inner) {
    const ValueDecl *Named = nullptr;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(&S))
      Named = Ref->getDecl();
    else if (const auto *Member = dyn_cast<MemberExpr>(&S))
      Named = Member->getMemberDecl();
    if (Named != &Place || isWrite(cast<Expr>(S), Ctx))
      return true;
    Calls Full = Base;
    Full.insert(Full.end(), Inner.begin(), Inner.end());
    if (isPeriodic(cast<Expr>(S), Full))
      return true;
    Needed = consumed(cast<Expr>(S), Full, Depth - 1);
    return !Needed;
  };
  if (Root) {
    forEachExecuted(*Root, Ctx, Visit);
  } else {
    for (const Stmt *Part : Loop.children())
      if (Part && isRepeatedPart(Loop, *Part) && !forEachExecuted(*Part, Ctx, Visit))
        break;
  }
  InProgress.erase(&Place);
  return Needed;
}

} // namespace clang::tidy::torch_tidy::utils
