//===--- CompileCommands.cpp - The compile command of each open file ------===//

#include "CompileCommands.h"
#include "CompileDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace torch_tidy::lsp {

using clang::tooling::CompileCommand;

/// Files of a database read when looking for a header's includer: beyond
/// this many the header's command is guessed instead.
static constexpr size_t MaxIncluderCandidates = 2000;

CompileCommands::CompileCommands(
    std::string BuildPath,
    std::unique_ptr<clang::tooling::CompilationDatabase> Fixed)
    : BuildPath(std::move(BuildPath)),
      Fixed(Fixed ? adaptForClang(std::move(Fixed)) : nullptr) {}

void CompileCommands::reload() {
  std::lock_guard<std::mutex> Guard(Lock);
  Loaded.clear();
}

void CompileCommands::recordIncludes(const std::string &MainFile,
                                     const std::vector<std::string> &Headers) {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const std::string &Header : Headers)
    IncludersOf[Header].insert(MainFile);
}

const CompileCommands::Database &
CompileCommands::databaseFor(const std::string &File) {
  std::optional<std::string> Path =
      BuildPath.empty() ? findCompileDatabase(File, /*InBuildDirectories=*/true)
                        : std::optional<std::string>(BuildPath);
  static const Database None;
  if (!Path)
    return None;
  auto [It, Inserted] = Loaded.try_emplace(*Path);
  Database &D = It->second;
  if (Inserted) {
    D.Path = *Path;
    auto Commands = loadFromBuildPath(*Path);
    if (Commands)
      D.Commands = adaptForClang(std::move(*Commands));
    else
      D.Error = llvm::toString(Commands.takeError());
  }
  return D;
}

std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  if (!llvm::sys::path::is_absolute(Absolute)) {
    Absolute = Directory;
    llvm::sys::path::append(Absolute, Path);
  }
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

/// The directories \p Command searches for headers, absolute.
static std::vector<std::string> includeDirectories(const CompileCommand &Command) {
  static const llvm::StringRef Flags[] = {"-I", "-isystem", "-iquote",
                                          "-idirafter"};
  std::vector<std::string> Directories;
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I)
    for (llvm::StringRef Flag : Flags) {
      llvm::StringRef Arg = Args[I];
      if (!Arg.consume_front(Flag))
        continue;
      if (Arg.empty() && I + 1 < Args.size())
        Arg = Args[++I];
      if (!Arg.empty())
        Directories.push_back(absoluteIn(Command.Directory, Arg));
      break;
    }
  return Directories;
}

/// The names that \p Source's #include directives spell.
static std::vector<std::string> includedNames(llvm::StringRef Source) {
  std::vector<std::string> Names;
  while (!Source.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Source) = Source.split('\n');
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    char Close = Line.starts_with("<") ? '>' : Line.starts_with("\"") ? '"' : 0;
    if (!Close)
      continue;
    size_t End = Line.find(Close, 1);
    if (End != llvm::StringRef::npos)
      Names.push_back(Line.slice(1, End).str());
  }
  return Names;
}

/// Whether \p Includer's command finds \p Header under the name \p Spelled.
static bool resolvesTo(const CompileCommand &Includer, llvm::StringRef Spelled,
                       const std::string &Header) {
  std::vector<std::string> Directories = includeDirectories(Includer);
  Directories.insert(Directories.begin(),
                     llvm::sys::path::parent_path(
                         absoluteIn(Includer.Directory, Includer.Filename))
                         .str());
  return llvm::any_of(Directories, [&](const std::string &Directory) {
    return absoluteIn(Directory, Spelled) == Header;
  });
}

std::optional<FileCommand>
CompileCommands::borrowFromIncluder(const Database &D,
                                    const std::string &Header) {
  auto Listed = [&](const std::string &File) -> std::optional<CompileCommand> {
    std::vector<CompileCommand> Commands = D.Commands->getCompileCommands(File);
    if (Commands.empty() || !Commands.front().Heuristic.empty())
      return std::nullopt;
    return Commands.front();
  };
  auto Borrowed = [&](const std::string &Includer,
                      const CompileCommand &Command) {
    FileCommand Result;
    Result.From = FileCommand::Includer;
    Result.Command = clang::tooling::transferCompileCommand(Command, Header);
    Result.Detail = Includer;
    return Result;
  };
  // Files seen including it (open files analysed so far) first.
  auto Known = IncludersOf.find(Header);
  if (Known != IncludersOf.end())
    for (const std::string &Includer : Known->second)
      if (std::optional<CompileCommand> Command = Listed(Includer))
        return Borrowed(Includer, *Command);
  // Else the database's files that include it, nearest first.
  std::vector<std::string> Files = D.Commands->getAllFiles();
  llvm::StringRef HeaderDirectory = llvm::sys::path::parent_path(Header);
  auto Distance = [&](llvm::StringRef File) {
    llvm::StringRef Directory = llvm::sys::path::parent_path(File);
    size_t Common = 0;
    while (Common < Directory.size() && Common < HeaderDirectory.size() &&
           Directory[Common] == HeaderDirectory[Common])
      ++Common;
    return Directory.size() + HeaderDirectory.size() - 2 * Common;
  };
  std::stable_sort(Files.begin(), Files.end(),
                   [&](const std::string &A, const std::string &B) {
                     return Distance(A) < Distance(B);
                   });
  llvm::StringRef Name = llvm::sys::path::filename(Header);
  for (size_t I = 0; I < Files.size() && I < MaxIncluderCandidates; ++I) {
    auto Text = llvm::MemoryBuffer::getFile(Files[I]);
    if (!Text)
      continue;
    for (const std::string &Spelled : includedNames((*Text)->getBuffer())) {
      if (llvm::sys::path::filename(Spelled) != Name)
        continue;
      std::optional<CompileCommand> Command = Listed(Files[I]);
      if (Command && resolvesTo(*Command, Spelled, Header))
        return Borrowed(Files[I], *Command);
    }
  }
  return std::nullopt;
}

FileCommand CompileCommands::commandFor(const std::string &File) {
  std::lock_guard<std::mutex> Guard(Lock);
  FileCommand Result;
  if (Fixed) {
    std::vector<CompileCommand> Commands = Fixed->getCompileCommands(File);
    if (!Commands.empty()) {
      Result.From = FileCommand::CommandLine;
      Result.Command = Commands.front();
      return Result;
    }
  }
  const Database &D = databaseFor(File);
  if (!D.Commands) {
    Result.Detail =
        !D.Error.empty()
            ? D.Error
            : "no compile_commands.json in its directory, a parent, or a "
              "build/ directory beside one (cmake "
              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON writes one), and the server "
              "was started without -p or flags after '--'";
    return Result;
  }
  std::vector<CompileCommand> Commands = D.Commands->getCompileCommands(File);
  if (Commands.empty()) {
    Result.Detail = "'" + D.Path + "' has no command for this file";
    return Result;
  }
  if (Commands.front().Heuristic.empty()) {
    Result.From = FileCommand::Listed;
    Result.Command = Commands.front();
    Result.Detail = D.Path;
    return Result;
  }
  if (std::optional<FileCommand> Borrowed = borrowFromIncluder(D, File))
    return *Borrowed;
  Result.From = FileCommand::Interpolated;
  Result.Command = Commands.front();
  Result.Detail = Commands.front().Heuristic;
  return Result;
}

} // namespace torch_tidy::lsp
