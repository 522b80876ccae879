//===--- Configuration.cpp - Where each file's clang-tidy options come from===//

#include "Configuration.h"
#include "CheckCatalog.h"
#include "UnknownNames.h"
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
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FileSystem,
      ConfigFileHandler::second_type Parse = printingParser)
      : FileOptionsProvider(ClangTidyGlobalOptions(), std::move(Defaults),
                            std::move(Overrides),
                            ConfigFileHandlers{{".torch-tidy", Parse}}) {
    // The handlers' constructor leaves the file system unset in LLVM 19.
    FS = std::move(FileSystem);
  }

private:
  static llvm::ErrorOr<ClangTidyOptions>
  printingParser(llvm::MemoryBufferRef Config) {
    return parseTorchTidyConfiguration(Config, [](const llvm::SMDiagnostic &D) {
      D.print(nullptr, llvm::errs());
    });
  }
};

/// "LINE:COL: message" of the YAML parser's diagnostic (three lines on
/// stderr otherwise), or the message alone.
std::string oneLine(const llvm::SMDiagnostic &D) {
  std::string Message = D.getMessage().str();
  if (D.getLineNo() <= 0)
    return Message;
  return (llvm::Twine(D.getLineNo()) + ":" + llvm::Twine(D.getColumnNo() + 1) +
          ": " + Message)
      .str();
}

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
    return parse(*Flags.Config, "--config");
  return llvm::Error::success();
}

void OptionsFactory::warnAboutUnknownNames(llvm::raw_ostream &OS) const {
  if (Overrides.Checks)
    warnEach(OS, "--checks", unknownChecks(*Overrides.Checks));
  if (Overrides.WarningsAsErrors)
    warnEach(OS, "--warnings-as-errors",
             unknownChecks(*Overrides.WarningsAsErrors));
  if (Explicit)
    warnAboutUnknownNamesIn(*Explicit, ExplicitSource, OS);
}

llvm::Error OptionsFactory::verifyFiles(llvm::ArrayRef<std::string> Files,
                                        llvm::raw_ostream &OS) const {
  if (Explicit)
    return llvm::Error::success();
  std::string Problem;
  // The provider reads each file once; one that does not parse stops the
  // search instead of the provider's looking further up, as it would.
  auto Verify = [&](llvm::MemoryBufferRef Config) {
    auto Parsed = parseTorchTidyConfiguration(
        Config, [&](const llvm::SMDiagnostic &D) {
          if (Problem.empty())
            Problem = Config.getBufferIdentifier().str() + ":" + oneLine(D);
        });
    if (!Parsed) {
      if (Problem.empty())
        Problem = Config.getBufferIdentifier().str() + ": " +
                  Parsed.getError().message();
      return llvm::ErrorOr<ClangTidyOptions>(ClangTidyOptions());
    }
    warnAboutUnknownNamesIn(*Parsed, Config.getBufferIdentifier(), OS);
    return Parsed;
  };
  TorchTidyFileOptionsProvider Provider(Defaults, Overrides,
                                        llvm::vfs::getRealFileSystem(), Verify);
  for (const std::string &File : Files) {
    Provider.getOptions(File);
    if (!Problem.empty())
      return error(Problem);
  }
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
  std::string Problem;
  auto Parsed = parseTorchTidyConfiguration(
      llvm::MemoryBufferRef(Text, Source), [&](const llvm::SMDiagnostic &D) {
        if (Problem.empty())
          Problem = oneLine(D);
      });
  if (!Parsed)
    return error("invalid configuration in " + Source + ": " +
                 (Problem.empty() ? Parsed.getError().message() : Problem));
  Explicit = std::move(*Parsed);
  ExplicitSource = Source.str();
  return llvm::Error::success();
}

} // namespace torch_tidy
