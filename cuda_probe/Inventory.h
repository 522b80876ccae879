//===--- Inventory.h - CUDA device inventory and self-test ------*- C++ -*-===//
//
// Implemented by Inventory.cu when CMake finds nvcc, and by InventoryStub.cpp
// otherwise. Plain types only: this header is compiled by nvcc too.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CUDA_PROBE_INVENTORY_H
#define TORCH_TIDY_CUDA_PROBE_INVENTORY_H

#include <string>
#include <vector>

namespace torch_tidy::probe {

struct GpuInfo {
  int Index = 0;
  std::string Name;
  int ComputeMajor = 0, ComputeMinor = 0;
  unsigned long long MemoryBytes = 0;
  int Multiprocessors = 0;
};

struct Inventory {
  bool RuntimeBuiltIn = false; ///< Built with nvcc and the CUDA runtime.
  int RuntimeVersion = 0;      ///< CUDA's encoding: 1000 * major + 10 * minor.
  int DriverVersion = 0;       ///< 0 when no driver is installed.
  std::vector<GpuInfo> Gpus;
  std::string Error; ///< Why there is no device, when there is none.
  bool SelfTestRan = false;
  bool SelfTestPassed = false;
  std::string SelfTestMessage;
};

/// Queries the CUDA runtime and, on device 0, runs a tiny kernel and a
/// host-device round trip. Never throws and never aborts.
Inventory takeInventory();

} // namespace torch_tidy::probe

#endif // TORCH_TIDY_CUDA_PROBE_INVENTORY_H
