//===--- Inventory.cu - CUDA device inventory and self-test ---------------===//

#include "Inventory.h"

#include <cuda_runtime.h>

namespace torch_tidy::probe {

namespace {

__global__ void addOne(int *Values, int Count) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    Values[I] += 1;
}

std::string describe(cudaError_t Status) {
  return std::string(cudaGetErrorName(Status)) + ": " +
         cudaGetErrorString(Status);
}

GpuInfo describeDevice(int Index) {
  cudaDeviceProp Props{};
  GpuInfo Info;
  Info.Index = Index;
  if (cudaGetDeviceProperties(&Props, Index) != cudaSuccess)
    return Info;
  Info.Name = Props.name;
  Info.ComputeMajor = Props.major;
  Info.ComputeMinor = Props.minor;
  Info.MemoryBytes = Props.totalGlobalMem;
  Info.Multiprocessors = Props.multiProcessorCount;
  return Info;
}

/// Copies 256 ints to device 0, adds one in a kernel, copies them back.
std::string selfTest() {
  constexpr int Count = 256;
  int Host[Count];
  for (int I = 0; I < Count; ++I)
    Host[I] = I;
  int *Device = nullptr;
  cudaError_t Status = cudaSetDevice(0);
  if (Status == cudaSuccess)
    Status = cudaMalloc(&Device, sizeof(Host));
  if (Status == cudaSuccess)
    Status = cudaMemcpy(Device, Host, sizeof(Host), cudaMemcpyHostToDevice);
  if (Status == cudaSuccess) {
    addOne<<<(Count + 127) / 128, 128>>>(Device, Count);
    Status = cudaGetLastError();
  }
  if (Status == cudaSuccess)
    Status = cudaMemcpy(Host, Device, sizeof(Host), cudaMemcpyDeviceToHost);
  if (Device)
    cudaFree(Device);
  if (Status != cudaSuccess)
    return describe(Status);
  for (int I = 0; I < Count; ++I)
    if (Host[I] != I + 1)
      return "kernel result mismatch at element " + std::to_string(I);
  return "";
}

} // namespace

Inventory takeInventory() {
  Inventory Inv;
  Inv.RuntimeBuiltIn = true;
  cudaRuntimeGetVersion(&Inv.RuntimeVersion);
  cudaDriverGetVersion(&Inv.DriverVersion);
  int Count = 0;
  cudaError_t Status = cudaGetDeviceCount(&Count);
  if (Status != cudaSuccess || Count == 0) {
    Inv.Error = "no CUDA device (" +
                (Status != cudaSuccess ? describe(Status)
                                       : std::string("device count is 0")) +
                ")";
    return Inv;
  }
  for (int I = 0; I < Count; ++I)
    Inv.Gpus.push_back(describeDevice(I));
  std::string Failure = selfTest();
  Inv.SelfTestRan = true;
  Inv.SelfTestPassed = Failure.empty();
  Inv.SelfTestMessage =
      Failure.empty() ? "kernel and host<->device copy on device 0 passed"
                      : Failure;
  return Inv;
}

} // namespace torch_tidy::probe
