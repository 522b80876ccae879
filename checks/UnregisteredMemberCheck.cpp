//===--- UnregisteredMemberCheck.cpp - device-unregistered-member ---------===//

#include "UnregisteredMemberCheck.h"
#include "api/ModuleContents.h"
#include "api/ModuleRegistrations.h"
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

/// Whether \p S is `this->field = <expr>;`.
bool assignsField(const Stmt &S, const FieldDecl &Field) {
  const auto *E = dyn_cast<Expr>(&S);
  const auto *Assign =
      E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Assign || Assign->getOperator() != OO_Equal)
    return false;
  const auto *Member =
      dyn_cast<MemberExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
  return Member && Member->getMemberDecl() == &Field &&
         isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts());
}

/// Whether a statement of \p Body before the one holding \p Use assigns
/// \p Field: `z = encode(x); ... decode(z);` reads what forward() wrote, on
/// the input's device, whatever the member held before.
bool writtenEarlier(const Expr &Use, const FieldDecl &Field,
                    const CompoundStmt &Body, ASTContext &Ctx) {
  // The statement of Body that holds Use, through the declaration of a
  // local it may initialise (`auto out = decode(z);`).
  const Stmt *Top = &Use;
  DynTypedNode Node = DynTypedNode::create(Use);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    if (Node.get<Stmt>() == &Body)
      break;
    if (const auto *Parent = Node.get<Stmt>())
      Top = Parent;
    else if (!Node.get<VarDecl>())
      return false;
  }
  for (const Stmt *S : Body.body()) {
    if (S == Top)
      return false;
    if (assignsField(*S, Field))
      return true;
  }
  return false;
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
      // `kernel.to(x.device())` reaches the method through a cast to const.
      const Expr *Value = Use;
      DynTypedNodeList Parents = Ctx.getParents(*Value);
      while (Parents.size() == 1 && Parents[0].get<ImplicitCastExpr>()) {
        Value = Parents[0].get<ImplicitCastExpr>();
        Parents = Ctx.getParents(*Value);
      }
      if (Parents.size() != 1)
        continue;
      if (const auto *Member = Parents[0].get<MemberExpr>())
        if (const auto *Callee = dyn_cast<CXXMethodDecl>(Member->getMemberDecl()))
          if (Callee->getDeclName().isIdentifier() &&
              (Callee->getName() == "to" || Callee->getName() == "cuda"))
            return nullptr;
      // `last = w.detach();` writes the member: what it held does not matter.
      if (const auto *Assign = Parents[0].get<CXXOperatorCallExpr>();
          Assign && Assign->getOperator() == OO_Equal &&
          Assign->getArg(0)->IgnoreImplicit() == Use)
        continue;
      if (const auto *Body = dyn_cast<CompoundStmt>(Method->getBody());
          Body && writtenEarlier(*Use, Field, *Body, Ctx))
        continue;
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

/// Whether a user-written constructor of \p Module has no body in this
/// translation unit (`Net();` in net.h, defined in net.cpp).
bool hasConstructorDefinedElsewhere(const CXXRecordDecl &Module) {
  return llvm::any_of(Module.ctors(), [](const CXXConstructorDecl *Ctor) {
    return !Ctor->isImplicit() && !Ctor->isDefaulted() && !Ctor->isDeleted() &&
           !Ctor->hasBody();
  });
}

} // namespace

void UnregisteredMemberCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Module = Result.Nodes.getNodeAs<CXXRecordDecl>("module");
  ASTContext &Ctx = *Result.Context;
  // "Never registered" needs every place that could register: where the
  // compiler recovered from errors a register_module call may be what was
  // lost, a constructor defined in another translation unit is not seen, and
  // a class template's calls are resolved only in its instantiations.
  if (api::isLibTorchInternal(Module) || utils::containsErrors(*Module) ||
      Module->isDependentContext() || hasConstructorDefinedElsewhere(*Module))
    return;
  // A module that overrides to() may move its own members.
  for (const CXXMethodDecl *Method : Module->methods())
    if (Method->getDeclName().isIdentifier() && Method->getName() == "to")
      return;
  api::Registrations Registered = api::collectRegistrations(*Module, Ctx);
  for (const FieldDecl *Field : Module->fields()) {
    MemberKind Kind = kindOf(*Field);
    if (Kind == MemberKind::None || Registered.Fields.count(Field))
      continue;
    // A parameter-free LibTorch module (a pooling, an activation) has
    // nothing that Module::to moves or parameters() lists: only the training
    // mode, if its forward() reads it, is what registering it changes.
    api::ModuleContents Contents =
        Kind == MemberKind::Submodule
            ? api::contentsOf(api::heldModule(Field->getType()))
            : api::ModuleContents::State;
    if (Contents == api::ModuleContents::Nothing)
      continue;
    const Expr *Use = useInForward(*Field, *Module, Ctx);
    if (!Use)
      continue;
    bool IsTensor = Kind == MemberKind::Tensor;
    bool ModeOnly = Contents == api::ModuleContents::TrainingModeOnly;
    {
      auto Diag =
          diag(Field->getLocation(),
               IsTensor
                   ? "tensor member '%0' of module '%1' is never registered: "
                     "Module::to() does not move it, so after the module moves "
                     "to a GPU, forward() meets it on the CPU; register it "
                     "with register_buffer or register_parameter"
               : ModeOnly
                   ? "submodule '%0' of module '%1' is never registered: it "
                     "has no parameters, but eval() does not reach it, so "
                     "forward() keeps its training behaviour (random) after "
                     "eval(); register it with register_module"
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
    // The plan format replays devices, not training modes.
    if (ModeOnly)
      plans::recordNotReplayable(getID(), Field->getLocation(),
                                 Ctx.getSourceManager());
    else
      plans::recordPlan(getID(), Field->getLocation(), Ctx.getSourceManager(),
                        unregisteredPlan(getID(), *Field, IsTensor));
    diag(Use->getBeginLoc(), "'%0' is used in forward() here",
         DiagnosticIDs::Note)
        << Field->getName();
  }
}

} // namespace clang::tidy::torch_tidy
