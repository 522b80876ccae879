//===--- config_fuzzer.cpp - Configuration as the driver reads it ---------===//
//
// --config/--config-file text goes through the driver's parser
// (parseTorchTidyConfiguration: clang-tidy's, refusing what is not UTF-8);
// what parses is then merged over the driver's defaults and taken through
// --list-checks and --dump-config (which build every enabled check with the
// configured options). The dumped configuration must parse again, to the
// same checks. The same text as a '.torch-tidy' file goes through clang-tidy's
// file provider.
//
//===----------------------------------------------------------------------===//

#include "Configuration.h"
#include "FuzzSupport.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang::tidy;
using namespace torch_tidy::fuzz;

/// The driver's defaults (tool/Driver.cpp, OptionsFactory::init).
static ClangTidyOptions driverDefaults() {
  ClangTidyOptions Defaults;
  Defaults.Checks = "-*,device-*";
  Defaults.WarningsAsErrors = "";
  Defaults.HeaderFilterRegex = "";
  Defaults.SystemHeaders = false;
  Defaults.User = "fuzz";
  return Defaults;
}

static void throughTheDriver(const ClangTidyOptions &Parsed) {
  ConfigOptionsProvider Provider(
      ClangTidyGlobalOptions(),
      ClangTidyOptions::getDefaults().merge(driverDefaults(), 0), Parsed,
      ClangTidyOptions());
  ClangTidyOptions Effective = Provider.getOptions(scratchPath("a.cpp"));
  std::vector<std::string> Enabled = getCheckNames(Effective, false);
  Effective.CheckOptions = getCheckOptions(Effective, false);
  std::string Dumped =
      configurationAsText(ClangTidyOptions::getDefaults().merge(Effective, 0));

  auto Again = parseConfiguration(llvm::MemoryBufferRef(Dumped, "dumped"));
  check(bool(Again), "--dump-config's output parses", Dumped);
  check(getCheckNames(*Again, false) == Enabled,
        "--dump-config's output enables the same checks", Dumped);
}

/// The driver's provider of '.torch-tidy' files (TorchTidyFileOptionsProvider).
class TorchTidyFiles : public FileOptionsProvider {
public:
  TorchTidyFiles()
      : FileOptionsProvider(ClangTidyGlobalOptions(), driverDefaults(),
                            ClangTidyOptions(), handlers()) {
    FS = llvm::vfs::getRealFileSystem();
  }

private:
  static ConfigFileHandlers handlers() {
    ConfigFileHandlers Handlers;
    Handlers.emplace_back(".torch-tidy", [](llvm::MemoryBufferRef Config) {
      return torch_tidy::parseTorchTidyConfiguration(
          Config, [](const llvm::SMDiagnostic &) {});
    });
    return Handlers;
  }
};

static void asConfigFile(llvm::StringRef Text) {
  static const std::string Dir = [] {
    std::string D = scratchPath("project/src");
    llvm::sys::fs::create_directories(D);
    return D;
  }();
  writeFile(scratchPath("project/.torch-tidy"), Text);
  // A fresh provider: providers cache what they read per directory.
  TorchTidyFiles Provider;
  (void)getCheckNames(Provider.getOptions(Dir + "/a.cpp"), false);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Parsed = torch_tidy::parseTorchTidyConfiguration(
      llvm::MemoryBufferRef(Text, "<command-line-config>"),
      [](const llvm::SMDiagnostic &) {});
  if (Parsed)
    throughTheDriver(*Parsed);
  asConfigFile(Text);
  return 0;
}
