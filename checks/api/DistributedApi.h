//===--- DistributedApi.h - One process per GPU -----------------*- C++ -*-===//
//
// The names that tell a program runs one process per GPU (a rank from the
// launcher's environment or command line, MPI, a c10d process group or
// store), and the calls that choose each process's GPU another way (setting
// the current CUDA device, CUDA_VISIBLE_DEVICES).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_DISTRIBUTEDAPI_H
#define TORCH_TIDY_CHECKS_API_DISTRIBUTEDAPI_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::torch_tidy::api {

/// An environment variable in which a launcher passes a process's rank:
/// LOCAL_RANK, RANK (torchrun), OMPI_COMM_WORLD_LOCAL_RANK (Open MPI),
/// SLURM_LOCALID, PMI_RANK, ...
bool isRankEnvironmentVariable(llvm::StringRef Name);
/// A command-line flag that passes a rank: "--local_rank", "--local-rank=",
/// "--rank".
bool isRankFlag(llvm::StringRef Text);
/// A function or class of a process-group API: c10d's ProcessGroup, Store,
/// TCPStore, ..., and MPI_Comm_rank.
bool isProcessGroupApi(const NamedDecl *D);
/// A function or guard that sets the current CUDA device from its argument:
/// c10::cuda::set_device, cudaSetDevice, c10::cuda::CUDAGuard, ...
bool setsCurrentDevice(const NamedDecl *D);
/// setenv and putenv: with "CUDA_VISIBLE_DEVICES", each process sees its own
/// GPU as device 0.
bool setsEnvironment(const NamedDecl *D);
/// A variable name that holds a process's rank on its node: local_rank,
/// localRank, local_rank_.
bool isLocalRankName(llvm::StringRef Name);
/// A variable name that holds a rank: rank, world_rank, local_rank, ...
bool isRankName(llvm::StringRef Name);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_DISTRIBUTEDAPI_H
