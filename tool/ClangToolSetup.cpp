//===--- ClangToolSetup.cpp - The compiler command an analysis runs -------===//

#include "ClangToolSetup.h"
#include "clang/Tooling/ArgumentsAdjusters.h"

namespace torch_tidy {

using namespace clang;
using namespace clang::tooling;

static CommandLineArguments withExtraArgs(CommandLineArguments Args,
                                          const tidy::ClangTidyOptions &Options) {
  if (Options.ExtraArgsBefore) {
    auto At = Args.begin();
    if (At != Args.end() && !llvm::StringRef(*At).starts_with("-"))
      ++At; // after the compiler
    Args.insert(At, Options.ExtraArgsBefore->begin(),
                Options.ExtraArgsBefore->end());
  }
  if (Options.ExtraArgs)
    Args.insert(Args.end(), Options.ExtraArgs->begin(), Options.ExtraArgs->end());
  return Args;
}

void configureTool(ClangTool &Tool, tidy::ClangTidyContext &Context) {
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, llvm::StringRef File) {
        return withExtraArgs(Args, Context.getOptionsForFile(File));
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
}

std::vector<std::string>
analysedCommandLine(const CompileCommand &Command,
                    const tidy::ClangTidyOptions &Options) {
  // ClangTool's own adjusters first, then configureTool's.
  ArgumentsAdjuster Adjust = combineAdjusters(
      combineAdjusters(getClangStripOutputAdjuster(),
                       getClangSyntaxOnlyAdjuster()),
      getClangStripDependencyFileAdjuster());
  CommandLineArguments Args = Adjust(Command.CommandLine, Command.Filename);
  return getStripPluginsAdjuster()(withExtraArgs(std::move(Args), Options),
                                   Command.Filename);
}

} // namespace torch_tidy
