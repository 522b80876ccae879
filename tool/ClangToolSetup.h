//===--- ClangToolSetup.h - The compiler command an analysis runs -*- C++ -*-===//
//
// One place for what turns a compile command into the command the analysis
// parses with, so that every caller agrees: the analysis of a file, the
// precompiled header shared by files, and the driver's grouping of files
// whose commands agree.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CLANGTOOLSETUP_H
#define TORCH_TIDY_TOOL_CLANGTOOLSETUP_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// Adds what clang-tidy adds to every command: the configuration's
/// ExtraArgsBefore and ExtraArgs, and no compiler plugins.
void configureTool(clang::tooling::ClangTool &Tool,
                   clang::tidy::ClangTidyContext &Context);

/// The command line the analysis of \p Command's file runs, with
/// \p Options' extra arguments, without its output and dependency files.
std::vector<std::string>
analysedCommandLine(const clang::tooling::CompileCommand &Command,
                    const clang::tidy::ClangTidyOptions &Options);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CLANGTOOLSETUP_H
