//===--- DistributedApi.cpp - One process per GPU -------------------------===//

#include "DistributedApi.h"
#include "TorchApi.h"
#include "llvm/ADT/STLExtras.h"
#include <string>

namespace clang::tidy::torch_tidy::api {

bool isRankEnvironmentVariable(llvm::StringRef Name) {
  static const llvm::StringRef Names[] = {
      "LOCAL_RANK",          "RANK",
      "GROUP_RANK",          "OMPI_COMM_WORLD_LOCAL_RANK",
      "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
      "MV2_COMM_WORLD_RANK", "PMI_RANK",
      "PMIX_RANK",           "SLURM_LOCALID",
      "SLURM_PROCID",        "MPI_LOCALRANKID"};
  return llvm::is_contained(Names, Name);
}

bool isRankFlag(llvm::StringRef Text) {
  if (!Text.consume_front("--"))
    return false;
  Text = Text.take_until([](char C) { return C == '='; });
  std::string Flag = Text.lower();
  return Flag == "rank" || Flag == "local_rank" || Flag == "local-rank" ||
         Flag == "node_rank" || Flag == "node-rank";
}

static bool inNamespace(const NamedDecl *D, llvm::StringRef Namespace) {
  for (const DeclContext *Context = D->getDeclContext(); Context;
       Context = Context->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Context))
      if (NS->getName() == Namespace)
        return true;
  return false;
}

bool isProcessGroupApi(const NamedDecl *D) {
  if (!D)
    return false;
  if (inNamespace(D, "c10d"))
    return true;
  return D->getDeclName().isIdentifier() &&
         llvm::is_contained({"MPI_Comm_rank", "MPI_Comm_size", "MPI_Init",
                             "MPI_Init_thread"},
                            D->getName());
}

bool setsCurrentDevice(const NamedDecl *D) {
  if (!D || !D->getDeclName().isIdentifier())
    return false;
  return hasQualifiedName(
      D, {"c10::cuda::set_device", "at::cuda::set_device", "cudaSetDevice",
          "c10::cuda::CUDAGuard", "c10::cuda::OptionalCUDAGuard",
          "at::cuda::CUDAGuard", "at::cuda::OptionalCUDAGuard",
          "c10::cuda::MaybeSetDevice"});
}

bool setsEnvironment(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() &&
         llvm::is_contained({"setenv", "putenv", "_putenv", "_putenv_s"},
                            D->getName());
}

static std::string squashed(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name.lower())
    if (C != '_')
      Out += C;
  return Out;
}

bool isLocalRankName(llvm::StringRef Name) {
  std::string Bare = squashed(Name);
  return Bare == "localrank" || Bare == "mylocalrank" || Bare == "localrankid";
}

bool isRankName(llvm::StringRef Name) {
  std::string Bare = squashed(Name);
  return isLocalRankName(Name) || Bare == "rank" || Bare == "worldrank" ||
         Bare == "myrank" || Bare == "globalrank" || Bare == "noderank";
}

} // namespace clang::tidy::torch_tidy::api
