//===--- HostAccessCheck.cpp - device-host-access -------------------------===//

#include "HostAccessCheck.h"
#include "api/TensorMethods.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

namespace {

/// The nearest parent of \p E that is not an implicit cast or parentheses.
/// By value: a DynTypedNodeList holds a single parent inside itself, so a
/// pointer to it dangles once the list is gone (ASan found that).
std::optional<DynTypedNode> parentOf(const Expr &E, ASTContext &Ctx,
                                     const Expr *&Child) {
  Child = &E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.size() != 1)
      return std::nullopt;
    const auto *Parent = Parents[0].get<Expr>();
    if (Parent && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups, CStyleCastExpr,
                      CXXStaticCastExpr, CXXReinterpretCastExpr>(Parent)) {
      Child = Parent;
      continue;
    }
    return Parents[0];
  }
}

/// Functions that read the memory behind a pointer argument on the host.
bool isHostReader(const FunctionDecl *Fn) {
  if (!Fn || !Fn->getDeclName().isIdentifier())
    return false;
  std::string Name = Fn->getQualifiedNameAsString();
  return Name == "memcpy" || Name == "std::memcpy" || Name == "std::copy" ||
         Name == "std::copy_n" || Name == "memcmp" || Name == "fwrite" ||
         Name == "std::accumulate";
}

/// Whether the pointer value \p E is read on the host right there: indexed,
/// dereferenced, or handed to memcpy/std::copy or a container constructor.
const Expr *hostReadAt(const Expr &E, ASTContext &Ctx) {
  const Expr *Child;
  std::optional<DynTypedNode> Parent = parentOf(E, Ctx, Child);
  if (!Parent)
    return nullptr;
  if (const auto *Subscript = Parent->get<ArraySubscriptExpr>())
    return Subscript->getBase()->IgnoreParenImpCasts() ==
                   Child->IgnoreParenImpCasts()
               ? Subscript
               : nullptr;
  if (const auto *Unary = Parent->get<UnaryOperator>())
    return Unary->getOpcode() == UO_Deref ? Unary : nullptr;
  if (const auto *Binary = Parent->get<BinaryOperator>())
    // `p + n` read later: follow the arithmetic.
    return Binary->isAdditiveOp() ? hostReadAt(*Binary, Ctx) : nullptr;
  if (const auto *Call = Parent->get<CallExpr>())
    return isHostReader(Call->getDirectCallee()) ? Call : nullptr;
  if (const auto *Construct = Parent->get<CXXConstructExpr>())
    // std::vector<float>(p, p + n): a range constructor reads on the host.
    return Construct->getNumArgs() >= 2 &&
                   (Construct->getNumArgs() == 2 ||
                    isa<CXXDefaultArgExpr>(Construct->getArg(2))) &&
                   Construct->getArg(0)->getType()->isPointerType()
               ? Construct
               : nullptr;
  return nullptr;
}

/// The pointer variable \p Call initialises, if any.
const VarDecl *storedIn(const CXXMemberCallExpr &Call, ASTContext &Ctx) {
  const Expr *Child;
  std::optional<DynTypedNode> Parent = parentOf(Call, Ctx, Child);
  const auto *Var = Parent ? Parent->get<VarDecl>() : nullptr;
  return Var && Var->getType()->isPointerType() ? Var : nullptr;
}

/// The statement of the enclosing block that contains \p E.
const Stmt *statementOf(const Expr &E, ASTContext &Ctx) {
  const Stmt *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    if (Parents[0].get<CompoundStmt>())
      return Current;
    const auto *Parent = Parents[0].get<Stmt>();
    if (!Parent) {
      // A VarDecl: continue from its DeclStmt.
      DynTypedNodeList Up = Ctx.getParents(Parents[0]);
      if (Up.empty() || !Up[0].get<DeclStmt>())
        return nullptr;
      Current = Up[0].get<DeclStmt>();
      continue;
    }
    Current = Parent;
  }
}

/// data_ptr of a tensor on the accelerator. data<T>(), accessor<T, N>() and
/// the *_data_ptr methods read the same memory through data_ptr.
nlohmann::json hostReadPlan(llvm::StringRef Check) {
  plans::PlanBuilder Plan;
  std::string X = Plan.factory({"accel"});
  Plan.dataPtr(X);
  Plan.expect({{"kind", "host-pointer-to-device"}, {"step", Plan.lastStep()}});
  return Plan.finish(Check, "the tensor's memory is not host memory");
}

nlohmann::json temporaryPlan(llvm::StringRef Check,
                             const plans::ReplayedMove &Copy) {
  plans::PlanBuilder Plan;
  std::string X = Plan.factory({"accel"});
  Plan.move(X, Copy.Fn, Copy.Target, /*Keep=*/true);
  Plan.expect({{"kind", "to-copies"}, {"step", Plan.lastStep()}});
  return Plan.finish(Check, "the CPU copy is a new tensor, freed after the "
                            "statement");
}

} // namespace

/// The raw views of \p Facts' function.
std::vector<HostAccessCheck::PointerTake>
HostAccessCheck::pointerTakes(const flow::FunctionFacts &Facts, ASTContext &Ctx) {
  std::vector<PointerTake> Out;
  for (const Expr *E : flow::FlowCheck::nodesIn(
           Facts, cxxMemberCallExpr().bind("node"), Ctx)) {
    const auto *Call = cast<CXXMemberCallExpr>(E);
    if (!api::isRawAccess(Call->getMethodDecl()))
      continue;
    const Expr *Object = Call->getImplicitObjectArgument();
    PointerTake Take{Call, Facts.deviceOf(*Object)};
    if (const auto *Copy =
            dyn_cast<CXXMemberCallExpr>(utils::ignoreTemporaries(Object));
        Copy && api::isTensorType(Copy->getImplicitObjectArgument()->getType()) &&
        llvm::is_contained({api::TensorMove::Cpu, api::TensorMove::To},
                           api::tensorMoveOf(Copy->getMethodDecl()))) {
      Take.Temporary = Copy;
      Take.Copied = Facts.deviceOf(*Copy->getImplicitObjectArgument());
    }
    Out.push_back(Take);
  }
  return Out;
}

void HostAccessCheck::report(const flow::FunctionFacts &Facts,
                             ASTContext &Ctx) {
  for (const PointerTake &Take : pointerTakes(Facts, Ctx)) {
    if (Take.Call->getBeginLoc().isMacroID() || Reported.count(Take.Call))
      continue;
    const Stmt *Body = utils::enclosingFunctionBody(*Take.Call, Ctx);
    const VarDecl *Pointer = storedIn(*Take.Call, Ctx);
    if (Take.Temporary) {
      // `.cpu()` of a CPU tensor returns the tensor itself: no copy to free.
      if (Take.Tensor.Device != flow::Place::Cpu ||
          Take.Copied.Device == flow::Place::Cpu || !Pointer || !Body)
        continue;
      if (const Expr *Use = utils::firstReferenceAfter(
              *Pointer, *Body, *Take.Call, Ctx))
        reportTemporary(Take, Use, Facts, Ctx);
      continue;
    }
    if (Take.Tensor.Device != flow::Place::Accelerator)
      continue;
    if (Take.Call->getMethodDecl()->getName() == "accessor") {
      reportDeviceRead(Take, nullptr, Facts, Ctx);
      continue;
    }
    if (const Expr *Read = hostReadAt(*Take.Call, Ctx)) {
      reportDeviceRead(Take, Read, Facts, Ctx);
      continue;
    }
    if (!Pointer || !Body)
      continue;
    for (const Expr *Use :
         utils::referencesAfter(*Pointer, *Body, *Take.Call, Ctx))
      if (const Expr *Read = hostReadAt(*Use, Ctx)) {
        reportDeviceRead(Take, Read, Facts, Ctx);
        break;
      }
  }
}

void HostAccessCheck::reportDeviceRead(const PointerTake &Take,
                                       const Expr *Read,
                                       const flow::FunctionFacts &Facts,
                                       ASTContext &Ctx) {
  Reported.insert(Take.Call);
  llvm::StringRef Method = Take.Call->getMethodDecl()->getName();
  finding(Take.Call->getBeginLoc(),
       "'%0' gives the memory of %1, which may be on %2: the host cannot "
       "read device memory (a crash or garbage); copy it to the CPU first "
       "('.cpu()') or use item() for one value")
      << Method << quoted(Take.Call->getImplicitObjectArgument(), Ctx)
      << flow::describeDevice(Take.Tensor, Ctx)
      << Take.Call->getSourceRange();
  if (Read)
    diag(Read->getBeginLoc(), "read on the host here", DiagnosticIDs::Note);
  noteAcceleratorOrigin(Take.Tensor, Ctx);
  noteCallChain(Facts, Ctx);
  plans::recordPlan(getID(), Take.Call->getBeginLoc(), Ctx.getSourceManager(),
                    hostReadPlan(getID()));
}

/// `auto x_cpu = x.cpu();` before the statement, and `x_cpu` instead of the
/// temporary.
static std::vector<FixItHint> bindCopy(const CXXMemberCallExpr &Call,
                                       const CXXMemberCallExpr &Temporary,
                                       ASTContext &Ctx) {
  const Expr *Source = Temporary.getImplicitObjectArgument();
  const ValueDecl *Named = utils::namedObject(*Source);
  const Stmt *Statement = statementOf(Call, Ctx);
  auto Copy = utils::sourceText(Temporary, Ctx);
  if (!Named || !Statement || !Copy || Statement->getBeginLoc().isMacroID())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Statement->getBeginLoc();
  llvm::StringRef Line = Lexer::getIndentationForLine(Begin, SM);
  std::string Name = Named->getName().str() + "_cpu";
  return {FixItHint::CreateInsertion(
              Begin, "auto " + Name + " = " + *Copy + ";\n" + Line.str()),
          FixItHint::CreateReplacement(Temporary.getSourceRange(), Name)};
}

void HostAccessCheck::reportTemporary(const PointerTake &Take,
                                      const Expr *Use,
                                      const flow::FunctionFacts &Facts,
                                      ASTContext &Ctx) {
  Reported.insert(Take.Call);
  {
    auto Diag = finding(Take.Call->getBeginLoc(),
                     "pointer into a temporary copy: when %0 is on a GPU, "
                     "%1 is a new tensor freed at the end of the statement, "
                     "and the pointer dangles (on the CPU it returns the "
                     "tensor itself, so only a GPU run shows it); keep the "
                     "copy in a variable")
                << quoted(Take.Temporary->getImplicitObjectArgument(), Ctx)
                << quoted(Take.Temporary, Ctx) << Take.Call->getSourceRange();
    for (const FixItHint &Fix : bindCopy(*Take.Call, *Take.Temporary, Ctx))
      Diag << Fix;
  }
  diag(Use->getBeginLoc(), "the pointer is used here, after the copy is freed",
       DiagnosticIDs::Note);
  noteCallChain(Facts, Ctx);
  auto Copy = plans::replayedMove(*Take.Temporary);
  if (Copy && Copy->Target == "cpu")
    plans::recordPlan(getID(), Take.Call->getBeginLoc(), Ctx.getSourceManager(),
                      temporaryPlan(getID(), *Copy));
  else
    plans::recordNotReplayable(getID(), Take.Call->getBeginLoc(),
                               Ctx.getSourceManager());
}

} // namespace clang::tidy::torch_tidy
