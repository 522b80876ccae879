//===--- FactoryWithoutDeviceCheck.cpp - device-factory-without-device ----===//

#include "FactoryWithoutDeviceCheck.h"
#include "flow/ConflictPlan.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy {

FactoryWithoutDeviceCheck::FactoryWithoutDeviceCheck(StringRef Name,
                                                     ClangTidyContext *Context)
    : FlowCheck(Name, Context),
      // Read as text: g++ does not bind OptionsView's get<bool>
      // specialization that libclangTidy exports.
      Strict(llvm::StringRef(Options.get("Strict", "false")).equals_insensitive("true")) {}

void FactoryWithoutDeviceCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Strict", Strict ? "true" : "false");
}

/// `, torch::device(d)` when the factory has no options yet and the device
/// the tensor meets is a variable that can be named at the factory; else,
/// when the tensor it meets is a parameter of the function (a helper whose
/// caller passes a tensor on the device), `, torch::device(p.device())`.
static std::optional<FixItHint> addDevice(const CallExpr &Factory,
                                          const flow::Operand &Accelerator,
                                          ASTContext &Ctx) {
  if (Factory.getRParenLoc().isMacroID())
    return std::nullopt;
  for (const Expr *Arg : Factory.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) &&
        (api::isTensorOptionsType(Arg->getType()) ||
         api::namesADevice(Arg->getType())))
      return std::nullopt;
  const Expr *Device = Accelerator.Value.DeviceExpr;
  const ValueDecl *Named = Device ? utils::namedObject(*Device) : nullptr;
  std::optional<std::string> Text;
  if (Named && llvm::is_contained(api::devicesInScope(Factory, Ctx), Named))
    Text = utils::sourceText(*Device, Ctx);
  else if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(
               utils::namedObject(*Accelerator.E));
           Param && Param->getDeclContext() ==
                        utils::enclosingFunction(Factory, Ctx))
    Text = Param->getName().str() + ".device()";
  if (!Text)
    return std::nullopt;
  return FixItHint::CreateInsertion(Factory.getRParenLoc(),
                                    ", torch::device(" + *Text + ")");
}

bool FactoryWithoutDeviceCheck::owns(const flow::Meeting &M) {
  return M.cpu().Value.From == flow::Origin::FactoryWithoutDevice &&
         M.cpu().Value.Source;
}

bool FactoryWithoutDeviceCheck::owns(const flow::FunctionFacts &Facts,
                                     const flow::ForwardInput &F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Facts.Function);
  return F.Input.Value.From == flow::Origin::FactoryWithoutDevice &&
         F.Input.Value.Source && Method &&
         api::isModuleClass(Method->getParent());
}

void FactoryWithoutDeviceCheck::report(const flow::FunctionFacts &Facts,
                                       ASTContext &Ctx) {
  for (const flow::Meeting *M :
       meetingsOwned(
           Facts, [](const flow::Meeting &M) { return owns(M); },
           [](const flow::Meeting &M) { return M.cpu().Value.Source; })) {
    const flow::Operand &Cpu = M->cpu(), &Accelerator = M->accelerator();
    const auto *Factory = cast<CallExpr>(Cpu.Value.Source);
    recordMeetingPlan(*M, Factory->getBeginLoc(), Ctx);
    std::string Device = flow::describeDevice(Accelerator.Value, Ctx);
    {
      auto Diag = finding(Factory->getBeginLoc(),
                       "tensor created without a device is on the CPU, and "
                       "meets a tensor on %0 in %1%select{|, whose output it "
                       "is: a 0-dim CPU tensor is accepted as an input only|, "
                       "which accepts no CPU operand, not even a 0-dim one}2")
                  << Device << operationName(M->Sink)
                  << (!Cpu.Value.ZeroDim ? 0
                      : M->Op == api::OpKind::ElementWiseInPlace ? 1
                                                                 : 2)
                  << Factory->getSourceRange();
      if (auto Fix = addDevice(*Factory, Accelerator, Ctx))
        Diag << *Fix;
    }
    diag(M->Sink->getBeginLoc(),
         "it meets %0 here: LibTorch throws 'Expected all tensors to be on "
         "the same device' when %1 is not the CPU",
         DiagnosticIDs::Note)
        << quoted(Accelerator.E, Ctx, "a tensor on " + Device)
        << (Accelerator.Value.DeviceExpr
                ? quoted(Accelerator.Value.DeviceExpr, Ctx)
                : std::string("its device"));
    // Where the other tensor gets its device: a root cause too (a change
    // there makes the finding new, see --diff).
    noteAcceleratorOrigin(Accelerator.Value, Ctx);
    noteCallChain(Facts, Ctx);
  }
  reportForwardInputs(Facts, Ctx);
  if (Strict)
    reportStrict(Facts, Ctx);
}

void FactoryWithoutDeviceCheck::reportForwardInputs(
    const flow::FunctionFacts &Facts, ASTContext &Ctx) {
  for (const flow::ForwardInput &F : Facts.ForwardInputs) {
    if (!owns(Facts, F) || !Reported.insert(F.Input.Value.Source).second)
      continue;
    const auto *Factory = cast<CallExpr>(F.Input.Value.Source);
    if (auto Plan = flow::forwardInputPlan(F, getID(), "devices meet at 'forward'"))
      plans::recordPlan(getID(), Factory->getBeginLoc(), Ctx.getSourceManager(),
                        std::move(*Plan));
    else
      plans::recordNotReplayable(getID(), Factory->getBeginLoc(),
                                 Ctx.getSourceManager());
    finding(Factory->getBeginLoc(),
            "tensor created without a device is on the CPU, and is the input "
            "of '%0', which is moved to %1 with its module: its forward fails "
            "with 'Expected all tensors to be on the same device'")
        << F.Module->getName() << flow::describeDevice(F.ModuleDevice, Ctx)
        << Factory->getSourceRange();
    diag(F.Call->getBeginLoc(), "it is given to '%0' here",
         DiagnosticIDs::Note)
        << F.Module->getName();
    noteCallChain(Facts, Ctx);
  }
}

void FactoryWithoutDeviceCheck::reportStrict(const flow::FunctionFacts &Facts,
                                             ASTContext &Ctx) {
  if (!Facts.UsesAccelerator)
    return;
  using namespace ast_matchers;
  for (const Expr *Factory : nodesIn(Facts, callExpr().bind("node"), Ctx)) {
    flow::TensorValue Value = Facts.deviceOf(*Factory);
    if (Value.From == flow::Origin::FactoryWithoutDevice &&
        Value.Source == Factory && !Value.ZeroDim &&
        Reported.insert(Factory).second)
      finding(Factory->getBeginLoc(),
           "tensor created without a device is on the CPU, in a function "
           "that puts tensors on an accelerator")
          << Factory->getSourceRange();
  }
}

} // namespace clang::tidy::torch_tidy
