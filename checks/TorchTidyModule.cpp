//===--- TorchTidyModule.cpp - torch-tidy's checks ------------------------===//
//
// Registers every torch-tidy rule with clang-tidy's engine. The same object
// files serve the torch-tidy executable and libTorchTidyModule.so, the plugin
// for `clang-tidy --load`.
//
//===----------------------------------------------------------------------===//

#include "DeviceMismatchCheck.h"
#include "DiscardedToCheck.h"
#include "FactoryWithoutDeviceCheck.h"
#include "FromBlobCheck.h"
#include "HostAccessCheck.h"
#include "HardcodedDeviceCheck.h"
#include "InvalidDeviceStringCheck.h"
#include "LoadWithoutDeviceCheck.h"
#include "LoopCopyToCheck.h"
#include "LoopInvariantToCheck.h"
#include "MidGraphToCheck.h"
#include "UnmovedInputCheck.h"
#include "UnmovedTargetCheck.h"
#include "UnregisteredMemberCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace clang::tidy::torch_tidy {

class TorchTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<DiscardedToCheck>("device-discarded-to");
    Factories.registerCheck<FactoryWithoutDeviceCheck>(
        "device-factory-without-device");
    Factories.registerCheck<HardcodedDeviceCheck>("device-hardcoded");
    Factories.registerCheck<InvalidDeviceStringCheck>("device-invalid-string");
    Factories.registerCheck<FromBlobCheck>("device-from-blob");
    Factories.registerCheck<HostAccessCheck>("device-host-access");
    Factories.registerCheck<LoadWithoutDeviceCheck>(
        "device-load-without-device");
    Factories.registerCheck<LoopCopyToCheck>("device-loop-copy-to");
    Factories.registerCheck<LoopInvariantToCheck>("device-loop-invariant-to");
    Factories.registerCheck<MidGraphToCheck>("device-mid-graph-to");
    Factories.registerCheck<DeviceMismatchCheck>("device-mismatch");
    Factories.registerCheck<UnmovedInputCheck>("device-unmoved-input");
    Factories.registerCheck<UnmovedTargetCheck>("device-unmoved-target");
    Factories.registerCheck<UnregisteredMemberCheck>(
        "device-unregistered-member");
  }
};

static ClangTidyModuleRegistry::Add<TorchTidyModule>
    Registration("torch-tidy-module",
                 "Device-consistency checks for LibTorch code.");

} // namespace clang::tidy::torch_tidy

// Referenced by the torch-tidy driver so that static linking keeps the module.
volatile int TorchTidyModuleAnchorSource = 0;
