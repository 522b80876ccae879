//===--- CudaCommand.cpp - Compile commands of CUDA sources for clang ------===//

#include "CudaCommand.h"
#include "Version.h"
#include "clang/Basic/Cuda.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace torch_tidy {

using clang::tooling::CommandLineArguments;

/// cuda_shims/: installed beside the binary (share/torch-tidy/cuda_shims),
/// else the source tree's, for a torch-tidy run from its build directory.
static std::string shimsDir(llvm::StringRef Sub) {
  static const std::string Root = [] {
    static int Anchor;
    llvm::SmallString<256> Installed(llvm::sys::path::parent_path(
        llvm::sys::fs::getMainExecutable(nullptr, &Anchor)));
    llvm::sys::path::append(Installed, "..", "share", "torch-tidy", "cuda_shims");
    return llvm::sys::fs::is_directory(Installed) ? std::string(Installed)
                                                  : std::string(TORCH_TIDY_CUDA_SHIMS_DIR);
  }();
  return Root + "/" + Sub.str();
}

bool isNvccCommand(const CommandLineArguments &Args) {
  if (Args.empty())
    return false;
  llvm::StringRef Name = llvm::sys::path::filename(Args.front());
  return Name == "nvcc" || Name == "nvcc.exe";
}

/// nvcc's options that clang does not take, each with a value: as
/// `-opt value` or `-opt=value`.
static const char *const NvccOptionsWithValue[] = {
    "-Xcompiler",   "--compiler-options", "-Xptxas",      "--ptxas-options",
    "-Xcudafe",     "-Xnvlink",           "--nvlink-options",
    "-Xlinker",     "--linker-options",   "-Xfatbin",     "-Xarchive",
    "-ccbin",       "--compiler-bindir",  "-gencode",     "--generate-code",
    "-maxrregcount", "--maxrregcount",    "--default-stream",
    "-default-stream", "-t",              "--threads",    "--diag-suppress",
    "-diag-suppress", "--split-compile",  "--options-file", "-code",
    "--gpu-code",   "-rdc",               "--relocatable-device-code",
    "-cudart",      "--cudart",           "-ftz",         "--ftz",
    "-prec-div",    "--prec-div",         "-prec-sqrt",   "--prec-sqrt",
    "-fmad",        "--fmad",             "-arch",        "--gpu-architecture",
    "-static-global-template-stub",       "--static-global-template-stub"};

/// nvcc's options without a value that clang does not take.
static const char *const NvccFlags[] = {
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
    "--expt-extended-lambda",   "-expt-extended-lambda",
    "--extended-lambda",        "-extended-lambda",
    "--use_fast_math",          "-use_fast_math",
    "-lineinfo",                "--generate-line-info",
    "-G",                       "--device-debug",
    "--keep",                   "-keep",
    "--resource-usage",         "-res-usage",
    "-Wno-deprecated-gpu-targets", "--disable-warnings",
    "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-compiler",
    "-dc",                      "--device-c",
    "-dlto",                    "--display-error-number",
    "--restrict",               "-restrict",
    "--allow-unsupported-compiler", "-allow-unsupported-compiler",
    "--source-in-ptx",          "-src-in-ptx"};

/// The value of \p Option in \p Arg (`-opt=value`), or of the next argument
/// (`-opt value`, then \p TakesNext); None when \p Arg is not \p Option.
static std::optional<llvm::StringRef> optionValue(llvm::StringRef Arg,
                                                  llvm::StringRef Option,
                                                  bool &TakesNext) {
  TakesNext = Arg == Option;
  if (TakesNext)
    return llvm::StringRef();
  if (Arg.consume_front(Option) && Arg.consume_front("="))
    return Arg;
  return std::nullopt;
}

/// The sm_NN architectures that clang knows among those \p Value names:
/// `sm_80`, `compute_80`, `arch=compute_80,code=[sm_80,compute_80]`.
static void addArchitectures(llvm::StringRef Value,
                             CommandLineArguments &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::SplitString(Value, Parts, ",=[]\"' ");
  for (llvm::StringRef Part : Parts) {
    llvm::StringRef Number;
    if (Part.starts_with("sm_"))
      Number = Part.drop_front(3);
    else if (Part.starts_with("compute_"))
      Number = Part.drop_front(8);
    else
      continue;
    std::string Arch = ("sm_" + Number).str();
    if (clang::StringToOffloadArch(Arch) == clang::OffloadArch::UNKNOWN)
      continue; // newer than clang 19 knows: the host side does not need it
    std::string Flag = "--cuda-gpu-arch=" + Arch;
    if (!llvm::is_contained(Out, Flag))
      Out.push_back(Flag);
  }
}

static std::optional<std::string> toolkitOfNvcc(llvm::StringRef Nvcc) {
  if (!llvm::sys::path::is_absolute(Nvcc))
    return std::nullopt;
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(Nvcc))
      .str();
}

CommandLineArguments fromNvcc(const CommandLineArguments &Args) {
  CommandLineArguments Out{"clang++"};
  if (std::optional<std::string> Toolkit = toolkitOfNvcc(Args.front()))
    if (llvm::sys::fs::exists(*Toolkit + "/include/cuda_runtime.h"))
      Out.push_back("--cuda-path=" + *Toolkit);
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (llvm::is_contained(NvccFlags, Arg))
      continue;
    if (Arg == "-x" && I + 1 < Args.size() && Args[I + 1] == "cu") {
      Out.insert(Out.end(), {"-x", "cuda"});
      ++I;
      continue;
    }
    if (Arg == "--std" && I + 1 < Args.size()) {
      Out.push_back("-std=" + Args[++I]);
      continue;
    }
    bool Dropped = false;
    for (llvm::StringRef Option : NvccOptionsWithValue) {
      bool TakesNext;
      std::optional<llvm::StringRef> Value = optionValue(Arg, Option, TakesNext);
      if (!Value)
        continue;
      if (TakesNext && I + 1 < Args.size())
        Value = Args[++I];
      if (Option.contains("arch") || Option.contains("code"))
        addArchitectures(*Value, Out);
      Dropped = true;
      break;
    }
    if (!Dropped)
      Out.push_back(Args[I]);
  }
  return Out;
}

static bool isToolkit(llvm::StringRef Dir) {
  return !Dir.empty() &&
         llvm::sys::fs::exists(Dir + "/include/cuda_runtime.h");
}

std::optional<std::string> findCudaToolkit(const CommandLineArguments &Args) {
  for (llvm::StringRef Arg : Args)
    if (Arg.consume_front("--cuda-path="))
      return isToolkit(Arg) ? std::optional<std::string>(Arg.str())
                            : std::nullopt;
  for (const char *Variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> Dir = llvm::sys::Process::GetEnv(Variable))
      if (isToolkit(*Dir))
        return Dir;
  if (!Args.empty())
    if (std::optional<std::string> Dir = toolkitOfNvcc(Args.front()))
      if (isToolkit(*Dir))
        return Dir;
  if (isToolkit("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return std::nullopt;
}

bool isCudaCommand(const CommandLineArguments &Args, llvm::StringRef File) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x")
      return Args[I + 1] == "cuda" || Args[I + 1] == "cu";
  if (llvm::is_contained(Args, "-xcuda"))
    return true;
  return llvm::sys::path::extension(File) == ".cu";
}

CommandLineArguments forCudaHostParse(const CommandLineArguments &Args) {
  CommandLineArguments Added{"--cuda-host-only", "-Wno-unknown-cuda-version"};
  std::optional<std::string> Toolkit = findCudaToolkit(Args);
  bool HasPath = llvm::any_of(Args, [](llvm::StringRef Arg) {
    return Arg.starts_with("--cuda-path=");
  });
  if (Toolkit) {
    if (!HasPath)
      Added.push_back("--cuda-path=" + *Toolkit);
    // CUDA 13 moved Thrust and CUB under include/cccl, where nvcc finds
    // them and clang does not.
    if (llvm::sys::fs::is_directory(*Toolkit + "/include/cccl"))
      Added.insert(Added.end(), {"-idirafter", *Toolkit + "/include/cccl"});
    if (!llvm::sys::fs::exists(*Toolkit + "/include/texture_fetch_functions.h"))
      Added.insert(Added.end(),
                   {"-idirafter", shimsDir("cuda13")});
  }
  CommandLineArguments Out;
  for (const std::string &Arg : Args)
    if (Arg != "--cuda-device-only" && Arg != "--cuda-host-only")
      Out.push_back(Arg);
  Out.insert(Out.begin() + (Out.empty() ? 0 : 1), Added.begin(), Added.end());
  return Out;
}

unsigned leaveOutCudaWithoutToolkit(
    const clang::tooling::CompilationDatabase &Commands,
    std::vector<std::string> &Files, llvm::raw_ostream &Errs) {
  unsigned Before = Files.size();
  llvm::erase_if(Files, [&](const std::string &File) {
    std::vector<clang::tooling::CompileCommand> Found =
        Commands.getCompileCommands(File);
    if (Found.empty() || !isCudaCommand(Found.front().CommandLine, File) ||
        findCudaToolkit(Found.front().CommandLine))
      return false;
    Errs << "torch-tidy: error: '" << File
         << "' is CUDA and no CUDA toolkit was found: set CUDA_HOME or give "
            "its compile command --cuda-path=<toolkit>\n";
    return true;
  });
  return Before - Files.size();
}

CommandLineArguments withLibTorchShims(const CommandLineArguments &Args) {
  CommandLineArguments Out = Args;
  // Last in the search: read only where LibTorch has no such header.
  Out.insert(Out.begin() + (Out.empty() ? 0 : 1),
             {"-idirafter", shimsDir("libtorch-cpu")});
  return Out;
}

} // namespace torch_tidy
