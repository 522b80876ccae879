//===--- Configuration.h - Where each file's clang-tidy options come from -===//
//
// The options of a file are the defaults (only torch-tidy's rules), then the
// nearest '.torch-tidy' (or --config / --config-file instead), then the
// command line's overrides. A project's '.clang-tidy' configures other tools
// and is never read.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CONFIGURATION_H
#define TORCH_TIDY_TOOL_CONFIGURATION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// What the command line says about the configuration; an option left unset
/// is not given.
struct ConfigurationFlags {
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilter;
  std::optional<bool> SystemHeaders, UseColor;
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::optional<std::string> Config, ConfigFile;
};

/// clang-tidy's configuration parser, refusing text that is not UTF-8: the
/// YAML writer of --dump-config replaces such bytes, so what it wrote would
/// configure other checks than what was read (found by the config fuzzer:
/// `Checks: "\x9b-{b,*"` enabled every check, its dump only the defaults).
llvm::ErrorOr<clang::tidy::ClangTidyOptions>
parseTorchTidyConfiguration(llvm::MemoryBufferRef Config,
                            clang::tidy::DiagCallback Handler);

/// Builds a fresh options provider per analysis: each ClangTidyContext owns
/// one, and providers cache per directory, so they are not shared (and a
/// '.torch-tidy' edited between two analyses is read again).
class OptionsFactory {
public:
  /// Parses --config/--config-file once, so that errors are reported before
  /// any work starts.
  llvm::Error init(const ConfigurationFlags &Flags);

  /// \p FS resolves the names of the files analysed: give the one the
  /// analysis runs on, whose working directory is the compile command's, so
  /// that a file named relative to it finds its '.torch-tidy'.
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
  create(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
             llvm::vfs::getRealFileSystem()) const;

  /// Warns on \p OS, one line each, about the check globs and options of
  /// --checks, --warnings-as-errors and --config(-file) that name nothing.
  void warnAboutUnknownNames(llvm::raw_ostream &OS) const;

  /// Reads the '.torch-tidy' of each of \p Files, as their analyses will:
  /// the first that does not parse is an error, "FILE:LINE:COL: message";
  /// unknown names are warnings on \p OS, once per configuration file.
  llvm::Error verifyFiles(llvm::ArrayRef<std::string> Files,
                          llvm::raw_ostream &OS) const;

private:
  llvm::Error parse(llvm::StringRef Text, llvm::StringRef Source);

  clang::tidy::ClangTidyOptions Defaults, Overrides;
  std::optional<clang::tidy::ClangTidyOptions> Explicit;
  std::string ExplicitSource; // its file, or --config
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CONFIGURATION_H
