//===--- main.cpp - torch-tidy-probe --------------------------------------===//
//
// Replays torch-tidy's replay plans on cuda:0 (a CUDA-enabled LibTorch) or on
// the meta stand-in, each in its own child process, and prints verdicts.
//
//===----------------------------------------------------------------------===//

#include "ChildRunner.h"
#include "Inventory.h"
#include "runtime/Interpreter.h"
#include "runtime/Plan.h"
#include "runtime/Verdict.h"

#include <torch/cuda.h>
#include <torch/version.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;
using namespace torch_tidy;

namespace {

/// Exit codes (documented in docs/probe.md).
enum ExitCode {
  ExitOk = 0,          ///< Every plan was replayed; see the verdicts.
  ExitUsage = 1,       ///< Bad command line, missing path, unwritable output.
  ExitInvalidPlan = 2, ///< Some plans were invalid; the others were replayed.
  ExitNoBackend = 3,   ///< --backend=cuda without a usable CUDA device.
};

constexpr const char *kUsage =
    "usage: torch-tidy-probe [--backend=auto|cuda|meta] [--timeout=S] "
    "[--memory=MiB] [--jobs=N] [--output=FILE] PLAN_OR_DIR...\n"
    "       torch-tidy-probe --inventory [--output=FILE]\n";

struct Options {
  std::string Backend = "auto";
  double TimeoutSeconds = 60;
  long MemoryMiB = 4096;
  int Jobs = 1;
  std::string Output;
  bool Inventory = false;
  std::string RunOne; // hidden: replay one plan in this process
  std::vector<std::string> Paths;
};

class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// "--name=value" → value, when Arg starts with "--name=".
std::optional<std::string> valueOf(const std::string &Arg,
                                   const std::string &Name) {
  std::string Prefix = "--" + Name + "=";
  if (Arg.compare(0, Prefix.size(), Prefix) != 0)
    return std::nullopt;
  return Arg.substr(Prefix.size());
}

double positiveNumber(const std::string &Text, const std::string &Flag) {
  try {
    size_t Used = 0;
    double V = std::stod(Text, &Used);
    if (Used == Text.size() && V > 0)
      return V;
  } catch (const std::exception &) {
  }
  throw UsageError("--" + Flag + " needs a positive number, got '" + Text +
                   "'");
}

Options parseOptions(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (auto V = valueOf(Arg, "backend")) {
      if (*V != "auto" && *V != "cuda" && *V != "meta")
        throw UsageError("--backend must be auto, cuda or meta, got '" + *V +
                         "'");
      O.Backend = *V;
    } else if (auto V = valueOf(Arg, "timeout")) {
      O.TimeoutSeconds = positiveNumber(*V, "timeout");
    } else if (auto V = valueOf(Arg, "memory")) {
      O.MemoryMiB = static_cast<long>(positiveNumber(*V, "memory"));
    } else if (auto V = valueOf(Arg, "jobs")) {
      O.Jobs = static_cast<int>(positiveNumber(*V, "jobs"));
    } else if (auto V = valueOf(Arg, "output")) {
      O.Output = *V;
    } else if (auto V = valueOf(Arg, "run-one")) {
      O.RunOne = *V;
    } else if (Arg == "--inventory") {
      O.Inventory = true;
    } else if (Arg == "--help" || Arg == "-h") {
      std::cout << kUsage;
      std::exit(ExitOk);
    } else if (Arg.size() > 1 && Arg[0] == '-') {
      throw UsageError("unknown option '" + Arg + "'");
    } else {
      O.Paths.push_back(Arg);
    }
  }
  if (!O.Inventory && O.RunOne.empty() && O.Paths.empty())
    throw UsageError("no plans given");
  return O;
}

// --- the child: one replay -----------------------------------------------------

/// Caps the address space at what is mapped now (LibTorch loaded) plus
/// \p MiB. Not on CUDA: its runtime reserves far more address space than it
/// uses, and such a cap makes its initialisation fail.
void capAddressSpace(long MiB) {
  std::ifstream Statm("/proc/self/statm");
  unsigned long long Pages = 0;
  Statm >> Pages;
  rlim_t Limit = Pages * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) +
                 static_cast<rlim_t>(MiB) * 1024 * 1024;
  rlimit R{Limit, Limit};
  setrlimit(RLIMIT_AS, &R);
}

int runOne(const Options &O) {
  std::string Accel = O.Backend == "cuda" ? "cuda:0" : "meta";
  if (Accel == "meta")
    capAddressSpace(O.MemoryMiB);
  json Plan = plan::loadPlanFile(O.RunOne);
  std::cout << toJson(runtime::replay(Plan, Accel)).dump() << std::endl;
  return ExitOk;
}

// --- the parent ------------------------------------------------------------------

/// CUDA's 13000 as "13.0"; null when unknown (no driver, no runtime).
json cudaVersionText(int Version) {
  if (Version <= 0)
    return nullptr;
  return std::to_string(Version / 1000) + "." +
         std::to_string(Version % 1000 / 10);
}

json inventoryJson(const probe::Inventory &Inv) {
  json Devices = json::array();
  for (const probe::GpuInfo &G : Inv.Gpus)
    Devices.push_back(
        {{"index", G.Index},
         {"name", G.Name},
         {"compute_capability", std::to_string(G.ComputeMajor) + "." +
                                    std::to_string(G.ComputeMinor)},
         {"memory_mib", G.MemoryBytes / (1024 * 1024)},
         {"multiprocessors", G.Multiprocessors}});
  json J = {
      {"cuda_runtime_built_in", Inv.RuntimeBuiltIn},
      {"cuda_runtime_version", cudaVersionText(Inv.RuntimeVersion)},
      {"cuda_driver_version", cudaVersionText(Inv.DriverVersion)},
      {"devices", Devices},
      {"self_test",
       {{"ran", Inv.SelfTestRan},
        {"passed", Inv.SelfTestPassed},
        {"message", Inv.SelfTestMessage}}},
      {"libtorch",
       {{"version", TORCH_VERSION},
        {"cuda_available", torch::cuda::is_available()},
        {"cuda_device_count", torch::cuda::device_count()}}}};
  if (!Inv.Error.empty())
    J["error"] = Inv.Error;
  return J;
}

void writeOutput(const json &J, const std::string &Output) {
  std::string Text = J.dump(2) + "\n";
  if (Output.empty()) {
    std::cout << Text;
    return;
  }
  std::ofstream Out(Output);
  if (!(Out << Text))
    throw UsageError("cannot write " + Output);
}

std::vector<std::string> collectPlanFiles(const std::vector<std::string> &Paths) {
  std::vector<std::string> Files;
  for (const std::string &P : Paths) {
    std::error_code EC;
    if (fs::is_directory(P, EC)) {
      std::vector<std::string> InDir;
      for (const fs::directory_entry &E : fs::directory_iterator(P, EC))
        if (E.is_regular_file() && E.path().extension() == ".json")
          InDir.push_back(E.path().string());
      std::sort(InDir.begin(), InDir.end());
      Files.insert(Files.end(), InDir.begin(), InDir.end());
    } else if (fs::exists(P, EC)) {
      Files.push_back(P);
    } else {
      throw UsageError(P + ": no such file or directory");
    }
  }
  if (Files.empty())
    throw UsageError("no plan files (*.json) found");
  return Files;
}

struct Backend {
  std::string Name;   ///< "cuda:0" or "meta"
  std::string Device; ///< "cuda:0 NVIDIA H200" or "meta (stand-in)"
};

std::optional<Backend> chooseBackend(const std::string &Requested,
                                     const probe::Inventory &Inv) {
  bool Cuda = Requested != "meta" && torch::cuda::is_available();
  if (Requested == "cuda" && !Cuda)
    return std::nullopt;
  if (!Cuda)
    return Backend{"meta", "meta (stand-in)"};
  std::string Device = "cuda:0";
  if (!Inv.Gpus.empty())
    Device += " " + Inv.Gpus.front().Name;
  return Backend{"cuda:0", Device};
}

std::string lastLine(const std::string &Text) {
  size_t End = Text.find_last_not_of("\n ");
  if (End == std::string::npos)
    return "";
  size_t Start = Text.rfind('\n', End);
  return Text.substr(Start == std::string::npos ? 0 : Start + 1,
                     End - (Start == std::string::npos ? 0 : Start + 1) + 1);
}

/// Turns how a child ended into a verdict.
plan::Verdict verdictOfChild(const probe::ChildResult &R, double Timeout) {
  auto Inconclusive = [](std::string Reason) {
    plan::Verdict V;
    V.Outcome = plan::outcome::Inconclusive;
    V.Reason = std::move(Reason);
    return V;
  };
  std::string Detail = lastLine(R.Stderr);
  Detail = Detail.empty() ? "" : ": " + Detail;
  if (R.TimedOut)
    return Inconclusive("replay exceeded the " + std::to_string(int(Timeout)) +
                        " s time limit and was killed");
  if (R.Signal)
    return Inconclusive("replay crashed with signal " +
                        std::to_string(R.Signal) + " (" +
                        strsignal(R.Signal) + ")" + Detail);
  if (R.ExitStatus != 0)
    return Inconclusive("replay exited with status " +
                        std::to_string(R.ExitStatus) + Detail);
  json Printed = json::parse(lastLine(R.Stdout), nullptr,
                             /*allow_exceptions=*/false);
  auto Parsed = plan::parseVerdict(Printed);
  if (auto *V = std::get_if<plan::Verdict>(&Parsed))
    return *V;
  return Inconclusive("replay printed no verdict" + Detail);
}

/// PlanError messages start with "<file>: "; the verdict names the file.
std::string withoutFilePrefix(const std::string &Message,
                              const std::string &File) {
  std::string Prefix = File + ": ";
  return Message.compare(0, Prefix.size(), Prefix) == 0
             ? Message.substr(Prefix.size())
             : Message;
}

struct PlanEntry {
  std::string File;
  json Plan;         ///< null when invalid
  std::string Error; ///< the one-line validation error
};

/// The verdict on \p E: \p Replayed, or "invalid" when it was not run.
plan::Verdict verdictOn(const PlanEntry &E,
                        std::optional<plan::Verdict> Replayed,
                        const Backend &B) {
  plan::Verdict V;
  if (Replayed) {
    V = std::move(*Replayed);
    V.Device = B.Device;
  } else {
    V.Outcome = plan::outcome::Invalid;
    V.Reason = E.Error;
  }
  V.File = E.File;
  if (E.Plan.is_object()) {
    V.Id = E.Plan.at("id");
    V.Check = E.Plan.at("check");
  }
  return V;
}

int runPlans(const Options &O, const char *Self) {
  std::vector<std::string> Files = collectPlanFiles(O.Paths);
  probe::Inventory Inv = probe::takeInventory();
  std::optional<Backend> B = chooseBackend(O.Backend, Inv);
  if (!B) {
    std::cerr << "torch-tidy-probe: error: --backend=cuda but LibTorch sees no "
                 "CUDA device (LibTorch "
              << TORCH_VERSION << ")\n";
    return ExitNoBackend;
  }

  std::vector<PlanEntry> Entries;
  std::vector<std::vector<std::string>> ChildArgs;
  for (const std::string &F : Files) {
    PlanEntry E{F, nullptr, ""};
    try {
      E.Plan = plan::loadPlanFile(F);
      ChildArgs.push_back({"--run-one=" + F,
                           "--backend=" + std::string(B->Name == "meta"
                                                          ? "meta"
                                                          : "cuda"),
                           "--memory=" + std::to_string(O.MemoryMiB)});
    } catch (const plan::PlanError &Err) {
      std::cerr << "torch-tidy-probe: invalid plan: " << Err.what() << "\n";
      E.Error = withoutFilePrefix(Err.what(), F);
    }
    Entries.push_back(std::move(E));
  }

  std::vector<probe::ChildResult> Results =
      probe::runChildren(Self, ChildArgs, O.Jobs, O.TimeoutSeconds);

  plan::VerdictsDocument Report;
  Report.Backend = B->Name;
  Report.Device = B->Device;
  Report.Inventory = inventoryJson(Inv);
  size_t Next = 0;
  for (const PlanEntry &E : Entries) {
    std::optional<plan::Verdict> Replayed;
    if (E.Plan.is_object())
      Replayed = verdictOfChild(Results[Next++], O.TimeoutSeconds);
    Report.Verdicts.push_back(verdictOn(E, std::move(Replayed), *B));
  }

  json Out = toJson(Report);
  writeOutput(Out, O.Output);
  const json &Counts = Out.at("summary");
  std::cerr << "torch-tidy-probe: " << Entries.size() << " plans: "
            << Counts[plan::outcome::Confirmed] << " confirmed, "
            << Counts[plan::outcome::NotReproduced] << " not-reproduced, "
            << Counts[plan::outcome::Inconclusive] << " inconclusive, "
            << Counts[plan::outcome::Invalid] << " invalid on " << B->Device
            << "\n";
  return Counts[plan::outcome::Invalid] > 0 ? ExitInvalidPlan : ExitOk;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    Options O = parseOptions(Argc, Argv);
    if (!O.RunOne.empty())
      return runOne(O);
    if (O.Inventory) {
      writeOutput(inventoryJson(probe::takeInventory()), O.Output);
      return ExitOk;
    }
    return runPlans(O, "/proc/self/exe");
  } catch (const UsageError &E) {
    std::cerr << "torch-tidy-probe: error: " << E.what() << "\n" << kUsage;
    return ExitUsage;
  } catch (const std::exception &E) {
    std::cerr << "torch-tidy-probe: error: " << E.what() << "\n";
    return ExitUsage;
  }
}
