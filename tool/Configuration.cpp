//===--- Configuration.cpp - Where each file's clang-tidy options come from===//

#include "Configuration.h"
#include "CheckCatalog.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

namespace torch_tidy {

using namespace clang::tidy;

namespace {

/// Reads '.torch-tidy' files only: a project's '.clang-tidy' configures other
/// tools and must not switch torch-tidy's rules off.
class TorchTidyFileOptionsProvider : public FileOptionsProvider {
public:
  TorchTidyFileOptionsProvider(
      ClangTidyOptions Defaults, ClangTidyOptions Overrides,
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FileSystem)
      : FileOptionsProvider(ClangTidyGlobalOptions(), std::move(Defaults),
                            std::move(Overrides), configHandlers()) {
    // The handlers' constructor leaves the file system unset in LLVM 19.
    FS = std::move(FileSystem);
  }

private:
  static ConfigFileHandlers configHandlers() {
    ConfigFileHandlers Handlers;
    Handlers.emplace_back(".torch-tidy", [](llvm::MemoryBufferRef Config) {
      return parseTorchTidyConfiguration(Config,
                                         [](const llvm::SMDiagnostic &D) {
                                           D.print(nullptr, llvm::errs());
                                         });
    });
    return Handlers;
  }
};

llvm::Error error(const llvm::Twine &Message) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 Message.str().c_str());
}

} // namespace

llvm::ErrorOr<ClangTidyOptions>
parseTorchTidyConfiguration(llvm::MemoryBufferRef Config, DiagCallback Handler) {
  if (size_t Offset = 0; !llvm::json::isUTF8(Config.getBuffer(), &Offset)) {
    Handler(llvm::SMDiagnostic(
        Config.getBufferIdentifier(), llvm::SourceMgr::DK_Error,
        "not valid UTF-8 (byte " + std::to_string(Offset) + ")"));
    return std::make_error_code(std::errc::illegal_byte_sequence);
  }
  return parseConfigurationWithDiags(Config, Handler);
}

llvm::Error OptionsFactory::init(const ConfigurationFlags &Flags) {
  Defaults.Checks = clang::tidy::torch_tidy::defaultChecks();
  Defaults.WarningsAsErrors = "";
  Defaults.HeaderFilterRegex = Flags.HeaderFilter.value_or("");
  Defaults.SystemHeaders = Flags.SystemHeaders.value_or(false);
  Defaults.User = llvm::sys::Process::GetEnv("USER");
  Overrides.Checks = Flags.Checks;
  Overrides.WarningsAsErrors = Flags.WarningsAsErrors;
  Overrides.HeaderFilterRegex = Flags.HeaderFilter;
  Overrides.SystemHeaders = Flags.SystemHeaders;
  Overrides.UseColor = Flags.UseColor;
  if (!Flags.ExtraArgs.empty())
    Overrides.ExtraArgs = Flags.ExtraArgs;
  if (!Flags.ExtraArgsBefore.empty())
    Overrides.ExtraArgsBefore = Flags.ExtraArgsBefore;

  if (Flags.Config && Flags.ConfigFile)
    return error("--config-file and --config are mutually exclusive");
  if (Flags.ConfigFile) {
    auto Text = llvm::MemoryBuffer::getFile(*Flags.ConfigFile);
    if (!Text)
      return error("cannot read config file '" + *Flags.ConfigFile +
                   "': " + Text.getError().message());
    return parse((*Text)->getBuffer(), *Flags.ConfigFile);
  }
  if (Flags.Config)
    return parse(*Flags.Config, "<command-line-config>");
  return llvm::Error::success();
}

std::unique_ptr<ClangTidyOptionsProvider>
OptionsFactory::create(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) const {
  if (Explicit)
    return std::make_unique<ConfigOptionsProvider>(
        ClangTidyGlobalOptions(),
        ClangTidyOptions::getDefaults().merge(Defaults, 0), *Explicit,
        Overrides);
  return std::make_unique<TorchTidyFileOptionsProvider>(Defaults, Overrides,
                                                        std::move(FS));
}

llvm::Error OptionsFactory::parse(llvm::StringRef Text, llvm::StringRef Source) {
  // The YAML parser's own diagnostic (three lines on stderr) becomes part
  // of our one-line error.
  std::string Problem;
  auto Parsed = parseTorchTidyConfiguration(
      llvm::MemoryBufferRef(Text, Source), [&](const llvm::SMDiagnostic &D) {
        if (!Problem.empty())
          return;
        Problem = D.getMessage().str();
        if (D.getLineNo() > 0)
          Problem = (llvm::Twine(D.getLineNo()) + ":" +
                     llvm::Twine(D.getColumnNo() + 1) + ": " + Problem)
                        .str();
      });
  if (!Parsed)
    return error("invalid configuration in " + Source + ": " +
                 (Problem.empty() ? Parsed.getError().message() : Problem));
  Explicit = std::move(*Parsed);
  return llvm::Error::success();
}

} // namespace torch_tidy
