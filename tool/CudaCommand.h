//===--- CudaCommand.h - Compile commands of CUDA sources for clang -*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_CUDACOMMAND_H
#define TORCH_TIDY_TOOL_CUDACOMMAND_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// Whether \p Args (a compile command, compiler first) runs nvcc.
bool isNvccCommand(const clang::tooling::CommandLineArguments &Args);

/// An nvcc command as a clang++ command: nvcc-only flags (-Xcompiler,
/// --expt-relaxed-constexpr, -gencode, -ccbin, ...) dropped with their
/// values, -arch/-gencode architectures as --cuda-gpu-arch when clang knows
/// them, `-x cu` as `-x cuda`.
clang::tooling::CommandLineArguments
fromNvcc(const clang::tooling::CommandLineArguments &Args);

/// The CUDA toolkit \p Args parse against: its --cuda-path, else $CUDA_HOME,
/// $CUDA_PATH, the toolkit of an nvcc compiler, /usr/local/cuda; the first
/// that has include/cuda_runtime.h. None when there is none.
std::optional<std::string>
findCudaToolkit(const clang::tooling::CommandLineArguments &Args);

/// Whether \p Args compile \p File as CUDA: a .cu file or `-x cuda`.
bool isCudaCommand(const clang::tooling::CommandLineArguments &Args,
                   llvm::StringRef File);

/// \p Args, a CUDA command for clang, made to parse the host side with
/// clang 19: --cuda-host-only, no warning for a toolkit newer than clang
/// knows, the toolkit's path, its include/cccl (Thrust, CUB), and the
/// compatibility headers of cuda_shims/cuda13 when the toolkit lacks them.
/// Without a toolkit, clang's own error says to pass --cuda-path.
clang::tooling::CommandLineArguments
forCudaHostParse(const clang::tooling::CommandLineArguments &Args);

/// \p Args with cuda_shims/libtorch-cpu last in the include search: a
/// .cpp binding including <c10/cuda/CUDAGuard.h> parses against a CPU-only
/// LibTorch too.
clang::tooling::CommandLineArguments
withLibTorchShims(const clang::tooling::CommandLineArguments &Args);

/// Leaves out of \p Files each CUDA source that no CUDA toolkit is found
/// for, with one error line on \p Errs naming what to set; how many.
unsigned leaveOutCudaWithoutToolkit(
    const clang::tooling::CompilationDatabase &Commands,
    std::vector<std::string> &Files, llvm::raw_ostream &Errs);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CUDACOMMAND_H
