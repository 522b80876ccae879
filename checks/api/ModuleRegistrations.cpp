//===--- ModuleRegistrations.cpp - What a torch::nn::Module registers -----===//

#include "ModuleRegistrations.h"
#include "TorchApi.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy::api {

/// The field of `this` that \p E names, through a copy.
static const FieldDecl *memberOfThis(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  // A by-value parameter (register_buffer's Tensor) copies the member.
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor())
    E = Copy->getArg(0)->IgnoreImplicit();
  const auto *Member = dyn_cast<MemberExpr>(E);
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreImplicit()))
    return nullptr;
  return dyn_cast<FieldDecl>(Member->getMemberDecl());
}

/// The member initialisers of \p Method's definition when it is a
/// constructor: an out-of-line `Net::Net() : fc(register_module(...)) {}`
/// keeps them there, not on the declaration in the class.
static llvm::ArrayRef<CXXCtorInitializer *>
memberInitializers(const CXXMethodDecl &Method) {
  const auto *Ctor = dyn_cast_or_null<CXXConstructorDecl>(Method.getDefinition());
  if (!Ctor)
    return {};
  return llvm::ArrayRef(Ctor->init_begin(), Ctor->init_end());
}

/// The user's module classes built or held in \p E: `Block(d, h)`,
/// `std::make_shared<Head>()`, `Sequential(A(), B())`.
static void userModulesIn(const Stmt *E,
                          llvm::SmallVectorImpl<const CXXRecordDecl *> &Out) {
  if (!E)
    return;
  if (const auto *Value = dyn_cast<Expr>(E))
    if (const CXXRecordDecl *Held = heldModule(Value->getType());
        Held && !isLibTorchInternal(Held) && !llvm::is_contained(Out, Held))
      Out.push_back(Held);
  for (const Stmt *Child : E->children())
    userModulesIn(Child, Out);
}

/// What the methods of \p Module put into its registered containers, and
/// what its registered fields hold.
static void collectSubmodules(const CXXRecordDecl &Module, Registrations &Out,
                              ASTContext &Ctx) {
  for (const FieldDecl *Field : Out.Fields)
    if (const CXXRecordDecl *Held = heldModule(Field->getType());
        Held && !isLibTorchInternal(Held) &&
        !llvm::is_contained(Out.Submodules, Held))
      Out.Submodules.push_back(Held);
  auto IntoField = cxxMemberCallExpr(
      on(expr(anyOf(memberExpr(member(fieldDecl().bind("field"))),
                    hasDescendant(memberExpr(member(fieldDecl().bind("field"))))))));
  for (const CXXMethodDecl *Method : Module.methods()) {
    for (const CXXCtorInitializer *Init : memberInitializers(*Method))
      if (Init->getMember() && Out.Fields.count(Init->getMember()))
        userModulesIn(Init->getInit(), Out.Submodules);
    const Stmt *Body = Method->getBody();
    if (!Body)
      continue;
    for (const BoundNodes &Node :
         match(findAll(IntoField.bind("call")), *Body, Ctx)) {
      const auto *Field = Node.getNodeAs<FieldDecl>("field");
      if (!Out.Fields.count(Field))
        continue;
      for (const Expr *Arg : Node.getNodeAs<CallExpr>("call")->arguments())
        userModulesIn(Arg, Out.Submodules);
    }
    for (const BoundNodes &Node : match(
             findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("="))
                         .bind("assign")),
             *Body, Ctx)) {
      const auto *Assign = Node.getNodeAs<CXXOperatorCallExpr>("assign");
      if (const FieldDecl *Target = memberOfThis(Assign->getArg(0));
          Target && Out.Fields.count(Target))
        userModulesIn(Assign->getArg(1), Out.Submodules);
    }
  }
}

Registrations collectRegistrations(const CXXRecordDecl &Module,
                                   ASTContext &Ctx) {
  Registrations Out;
  auto RegisterCall = cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName(
      "register_buffer", "register_parameter", "register_module"))));
  for (const CXXMethodDecl *Method : Module.methods()) {
    for (const CXXCtorInitializer *Init : memberInitializers(*Method))
      if (Init->getMember() &&
          !match(expr(anyOf(RegisterCall, hasDescendant(RegisterCall))),
                 *Init->getInit(), Ctx)
               .empty())
        Out.Fields.insert(Init->getMember());
    const Stmt *Body = Method->getBody();
    if (!Body)
      continue;
    for (const BoundNodes &Node :
         match(findAll(RegisterCall.bind("call")), *Body, Ctx)) {
      const auto *Call = Node.getNodeAs<CXXMemberCallExpr>("call");
      if (Call->getNumArgs() >= 2)
        if (const FieldDecl *Passed = memberOfThis(Call->getArg(1)))
          Out.Fields.insert(Passed);
    }
    for (const BoundNodes &Node : match(
             findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("="))
                         .bind("assign")),
             *Body, Ctx)) {
      const auto *Assign = Node.getNodeAs<CXXOperatorCallExpr>("assign");
      const FieldDecl *Target = memberOfThis(Assign->getArg(0));
      if (!Target)
        continue;
      if (!match(expr(hasDescendant(RegisterCall)), *Assign->getArg(1), Ctx)
               .empty())
        Out.Fields.insert(Target);
      else if (isa<CXXConstructorDecl>(Method))
        Out.Assignments.try_emplace(Target, Assign);
      else
        Out.AssignedAfterConstruction.insert(Target);
    }
  }
  collectSubmodules(Module, Out, Ctx);
  return Out;
}

} // namespace clang::tidy::torch_tidy::api
