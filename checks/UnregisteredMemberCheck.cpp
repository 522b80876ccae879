//===--- UnregisteredMemberCheck.cpp - device-unregistered-member ---------===//

#include "UnregisteredMemberCheck.h"
#include "api/TorchApi.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void UnregisteredMemberCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxRecordDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                    isDerivedFrom(cxxRecordDecl(hasName("::torch::nn::Module"))))
          .bind("module"),
      this);
}

namespace {

enum class MemberKind { None, Tensor, Submodule };

MemberKind kindOf(const FieldDecl &Field) {
  if (api::isTensorType(Field.getType()) &&
      !Field.getType()->isReferenceType())
    return MemberKind::Tensor;
  if (api::heldModule(Field.getType()))
    return MemberKind::Submodule;
  return MemberKind::None;
}

const FieldDecl *memberOfThis(const Expr *E) {
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

/// What the class's methods register: the field a `register_*` call is
/// assigned to, and the field passed to it (C++ registers that very tensor
/// or module, so the member follows Module::to even if the result is
/// ignored).
struct Registrations {
  llvm::DenseSet<const FieldDecl *> Fields;
  /// `field = <expr>;` statements in constructors, for the fix-it.
  llvm::DenseMap<const FieldDecl *, const CXXOperatorCallExpr *> Assignments;
};

Registrations collectRegistrations(const CXXRecordDecl &Module,
                                   ASTContext &Ctx) {
  Registrations Out;
  auto RegisterCall = cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName(
      "register_buffer", "register_parameter", "register_module"))));
  for (const CXXMethodDecl *Method : Module.methods()) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() &&
            !match(expr(hasDescendant(RegisterCall)), *Init->getInit(), Ctx)
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
    }
  }
  return Out;
}

/// The first use of \p Field in a forward() of the class, unless forward()
/// moves it itself (`scale.to(x.device())`).
const Expr *useInForward(const FieldDecl &Field, const CXXRecordDecl &Module,
                         ASTContext &Ctx) {
  const Expr *First = nullptr;
  for (const CXXMethodDecl *Method : Module.methods()) {
    if (Method->getName() != "forward" || !Method->getBody())
      continue;
    auto Uses = match(findAll(memberExpr(member(equalsNode(&Field)),
                                         hasObjectExpression(cxxThisExpr()))
                                  .bind("use")),
                      *Method->getBody(), Ctx);
    for (const BoundNodes &Node : Uses) {
      const auto *Use = Node.getNodeAs<Expr>("use");
      for (const auto &Parent : Ctx.getParents(*Use))
        if (const auto *Member = Parent.get<MemberExpr>())
          if (const auto *Callee = dyn_cast<CXXMethodDecl>(Member->getMemberDecl()))
            if (Callee->getName() == "to" || Callee->getName() == "cuda")
              return nullptr;
      if (!First)
        First = Use;
    }
  }
  return First;
}

/// A module with a parameter and the unregistered member, moved: the member
/// stays on the CPU.
nlohmann::json unregisteredPlan(llvm::StringRef Check, const FieldDecl &Field,
                                bool IsTensor) {
  plans::PlanBuilder Plan;
  std::string Weight = Plan.factory({"cpu"});
  std::string Member = IsTensor ? Plan.factory({"cpu"}) : Plan.linear(4, 2);
  std::string Name = Field.getName().str();
  std::string Module =
      Plan.module({{"weight", Weight}}, {{Name, Member}});
  Plan.moduleTo(Module, "accel");
  Plan.expect({{"kind", "device-after"},
               {"step", Plan.lastStep()},
               {"value", Module + "." + Name + (IsTensor ? "" : ".weight")},
               {"device", "cpu"}});
  return Plan.finish(Check, "Module::to leaves the unregistered member behind");
}

} // namespace

void UnregisteredMemberCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Module = Result.Nodes.getNodeAs<CXXRecordDecl>("module");
  ASTContext &Ctx = *Result.Context;
  if (api::isLibTorchInternal(Module))
    return;
  // A module that overrides to() may move its own members.
  for (const CXXMethodDecl *Method : Module->methods())
    if (Method->getDeclName().isIdentifier() && Method->getName() == "to")
      return;
  Registrations Registered = collectRegistrations(*Module, Ctx);
  for (const FieldDecl *Field : Module->fields()) {
    MemberKind Kind = kindOf(*Field);
    if (Kind == MemberKind::None || Registered.Fields.count(Field))
      continue;
    const Expr *Use = useInForward(*Field, *Module, Ctx);
    if (!Use)
      continue;
    bool IsTensor = Kind == MemberKind::Tensor;
    {
      auto Diag =
          diag(Field->getLocation(),
               IsTensor
                   ? "tensor member '%0' of module '%1' is never registered: "
                     "Module::to() does not move it, so after the module moves "
                     "to a GPU, forward() meets it on the CPU; register it "
                     "with register_buffer or register_parameter"
                   : "submodule '%0' of module '%1' is never registered: "
                     "Module::to() does not move it, parameters() does not "
                     "list it (an optimizer never trains it) and serialization "
                     "skips it; register it with register_module")
          << Field->getName() << Module->getName();
      auto Assign = Registered.Assignments.find(Field);
      if (Assign != Registered.Assignments.end()) {
        const Expr *Value = Assign->second->getArg(1);
        auto Text = utils::sourceText(*Value, Ctx);
        if (Text)
          Diag << FixItHint::CreateReplacement(
              Value->getSourceRange(),
              std::string(IsTensor ? "register_buffer" : "register_module") +
                  "(\"" + Field->getName().str() + "\", " + *Text + ")");
      }
    }
    plans::recordPlan(getID(), Field->getLocation(), Ctx.getSourceManager(),
                      unregisteredPlan(getID(), *Field, IsTensor));
    diag(Use->getBeginLoc(), "'%0' is used in forward() here",
         DiagnosticIDs::Note)
        << Field->getName();
  }
}

} // namespace clang::tidy::torch_tidy
