//===--- FactoryWithoutDeviceCheck.cpp - device-factory-without-device ----===//

#include "FactoryWithoutDeviceCheck.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy {

using flow::Conflict;

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
                                          const flow::Conflict &C,
                                          ASTContext &Ctx) {
  if (Factory.getRParenLoc().isMacroID())
    return std::nullopt;
  for (const Expr *Arg : Factory.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) &&
        (api::isTensorOptionsType(Arg->getType()) ||
         api::namesADevice(Arg->getType())))
      return std::nullopt;
  const Expr *Device = C.Accelerator.DeviceExpr;
  const ValueDecl *Named = Device ? utils::namedObject(*Device) : nullptr;
  std::optional<std::string> Text;
  if (Named && llvm::is_contained(utils::devicesInScope(Factory, Ctx), Named))
    Text = utils::sourceText(*Device, Ctx);
  else if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(
               utils::namedObject(*C.AcceleratorOperand));
           Param && Param->getDeclContext() ==
                        utils::enclosingFunction(Factory, Ctx))
    Text = Param->getName().str() + ".device()";
  if (!Text)
    return std::nullopt;
  return FixItHint::CreateInsertion(Factory.getRParenLoc(),
                                    ", torch::device(" + *Text + ")");
}

void FactoryWithoutDeviceCheck::report(const flow::FunctionFacts &Facts,
                                       ASTContext &Ctx) {
  for (const Conflict *C : conflictsOf(Facts, Conflict::FactoryWithoutDevice)) {
    const auto *Factory = cast<CallExpr>(C->Cpu.Source);
    recordConflictPlan(*C, Factory->getBeginLoc(), Ctx);
    std::string Device = flow::describeDevice(C->Accelerator, Ctx);
    {
      auto Diag = diag(Factory->getBeginLoc(),
                       "tensor created without a device is on the CPU, and "
                       "meets a tensor on %0 in %1%select{|, whose output it "
                       "is: a 0-dim CPU tensor is accepted as an input only|, "
                       "which accepts no CPU operand, not even a 0-dim one}2")
                  << Device << operationName(C->Sink)
                  << (!C->Cpu.ZeroDim ? 0
                      : C->Op == api::OpKind::ElementWiseInPlace ? 1
                                                                 : 2)
                  << Factory->getSourceRange();
      if (auto Fix = addDevice(*Factory, *C, Ctx))
        Diag << *Fix;
    }
    diag(C->Sink->getBeginLoc(),
         "it meets %0 here: LibTorch throws 'Expected all tensors to be on "
         "the same device' when %1 is not the CPU",
         DiagnosticIDs::Note)
        << quoted(C->AcceleratorOperand, Ctx, "a tensor on " + Device)
        << (C->Accelerator.DeviceExpr ? quoted(C->Accelerator.DeviceExpr, Ctx)
                                      : std::string("its device"));
    // Where the other tensor gets its device: a root cause too (a change
    // there makes the finding new, see --diff).
    noteAcceleratorOrigin(C->Accelerator, Ctx);
    noteCallChain(Facts, Ctx);
  }
  if (Strict)
    reportStrict(Facts);
}

void FactoryWithoutDeviceCheck::reportStrict(const flow::FunctionFacts &Facts) {
  if (!Facts.UsesAccelerator)
    return;
  for (const CallExpr *Factory : Facts.DevicelessFactories)
    if (Reported.insert(Factory).second)
      diag(Factory->getBeginLoc(),
           "tensor created without a device is on the CPU, in a function "
           "that puts tensors on an accelerator")
          << Factory->getSourceRange();
}

} // namespace clang::tidy::torch_tidy
