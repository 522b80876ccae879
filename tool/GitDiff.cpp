//===--- GitDiff.cpp - The lines a change adds ----------------------------===//

#include "GitDiff.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include <map>

namespace torch_tidy {

/// A path as git quotes one with unusual bytes: "a\tb", "\303\251".
static std::string unquote(llvm::StringRef Path) {
  if (Path.size() < 2 || !Path.starts_with("\"") || !Path.ends_with("\""))
    return Path.str();
  Path = Path.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < Path.size(); ++I) {
    if (Path[I] != '\\' || I + 1 == Path.size()) {
      Out += Path[I];
      continue;
    }
    char C = Path[++I];
    if (C >= '0' && C <= '7' && I + 2 < Path.size()) {
      Out += static_cast<char>(((C - '0') << 6) | ((Path[I + 1] - '0') << 3) |
                               (Path[I + 2] - '0'));
      I += 2;
      continue;
    }
    switch (C) {
    case 't': Out += '\t'; break;
    case 'n': Out += '\n'; break;
    case 'r': Out += '\r'; break;
    default: Out += C; // '\\', '"'
    }
  }
  return Out;
}

LineFilter addedLines(llvm::StringRef Diff, llvm::StringRef Base) {
  static const llvm::Regex Hunk("^@@ -[0-9]+(,[0-9]+)? \\+([0-9]+)(,([0-9]+))? @@");
  std::map<std::string, std::vector<clang::tidy::FileFilter::LineRange>> Lines;
  std::string Current;
  bool GitPrefixes = false;
  llvm::SmallVector<llvm::StringRef, 0> DiffLines;
  Diff.split(DiffLines, '\n');
  for (llvm::StringRef Line : DiffLines) {
    Line = Line.rtrim('\r');
    if (Line.starts_with("diff --git ")) {
      GitPrefixes = Line.starts_with("diff --git a/") ||
                    Line.starts_with("diff --git \"a/");
      continue;
    }
    if (Line.starts_with("+++ ")) {
      // "+++ b/src/x.cpp", perhaps with a timestamp after a tab.
      std::string Path = unquote(Line.drop_front(4).split('\t').first);
      Current.clear();
      if (Path == "/dev/null")
        continue;
      if (GitPrefixes && llvm::StringRef(Path).starts_with("b/"))
        Path = Path.substr(2);
      llvm::SmallString<256> Full(Path);
      if (!llvm::sys::path::is_absolute(Full)) {
        Full = Base;
        llvm::sys::path::append(Full, Path);
      }
      llvm::sys::path::remove_dots(Full, /*remove_dot_dot=*/true);
      Current = std::string(Full);
      continue;
    }
    llvm::SmallVector<llvm::StringRef, 5> Match;
    if (Current.empty() || !Hunk.match(Line, &Match))
      continue;
    unsigned First = 0, Count = 1;
    Match[2].getAsInteger(10, First);
    if (!Match[4].empty())
      Match[4].getAsInteger(10, Count);
    if (Count > 0)
      Lines[Current].push_back({First, First + Count - 1});
  }
  LineFilter Filter;
  for (auto &[Name, Ranges] : Lines)
    Filter.push_back({Name, std::move(Ranges)});
  return Filter;
}

/// Runs git with \p Args; its standard output, or its first line of errors.
static llvm::Expected<std::string> runGit(std::vector<llvm::StringRef> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError(std::errc::no_such_file_or_directory,
                                   "--diff needs git, which is not on PATH");
  std::string Command = Args.front().str();
  llvm::SmallString<128> Out, Err;
  if (llvm::sys::fs::createTemporaryFile("torch-tidy-git", "out", Out) ||
      llvm::sys::fs::createTemporaryFile("torch-tidy-git", "err", Err))
    return llvm::createStringError(std::errc::io_error,
                                   "no temporary file for git's output");
  Args.insert(Args.begin(), {*Git, "-c", "core.quotePath=false"});
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  std::string Problem;
  int Status = llvm::sys::ExecuteAndWait(*Git, Args, std::nullopt, Redirects,
                                         0, 0, &Problem);
  auto Read = [](llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : std::string();
  };
  std::string Output = Read(Out), Errors = Read(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  if (Status != 0) {
    llvm::StringRef FirstLine = llvm::StringRef(Errors).trim().split('\n').first;
    return llvm::createStringError(
        std::errc::invalid_argument, "'git %s' failed: %s", Command.c_str(),
        (FirstLine.empty() ? Problem : FirstLine.str()).c_str());
  }
  return Output;
}

/// The root of the work tree around the current directory.
static llvm::Expected<std::string> topLevel() {
  auto Output = runGit({"rev-parse", "--show-toplevel"});
  if (!Output)
    return Output.takeError();
  return llvm::StringRef(*Output).trim().str();
}

llvm::Expected<GitDiff> gitDiff(llvm::StringRef Revision) {
  if (Revision.starts_with("-"))
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--diff=%s: a revision cannot start with '-'",
                                   Revision.str().c_str());
  auto TopLevel = topLevel();
  if (!TopLevel)
    return TopLevel.takeError();
  std::string Base = Revision.str();
  if (Base.empty()) {
    auto MergeBase = runGit({"merge-base", "HEAD", "@{upstream}"});
    if (!MergeBase)
      return llvm::createStringError(
          std::errc::invalid_argument,
          "--diff without a revision compares with the merge base of HEAD and "
          "its upstream branch, and there is none (%s); give --diff=REV",
          llvm::toString(MergeBase.takeError()).c_str());
    Base = llvm::StringRef(*MergeBase).trim().str();
  }
  // "--" after the revision: it is a revision, never a path.
  auto Patch = runGit({"diff", "-U0", "--no-color", "--no-ext-diff",
                       "--no-prefix", Base, "--"});
  if (!Patch)
    return Patch.takeError();
  return GitDiff{std::move(*Patch), std::move(*TopLevel)};
}

std::string patchBase() {
  auto TopLevel = topLevel();
  if (TopLevel)
    return std::move(*TopLevel);
  llvm::consumeError(TopLevel.takeError());
  llvm::SmallString<256> Here;
  llvm::sys::fs::current_path(Here);
  return std::string(Here);
}

llvm::Expected<std::string> readPatch(llvm::StringRef Path) {
  auto Buffer = Path == "-" ? llvm::MemoryBuffer::getSTDIN()
                            : llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read patch '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  return (*Buffer)->getBuffer().str();
}

std::vector<std::string> filesForChange(const std::vector<std::string> &Files,
                                        const LineFilter &Changed) {
  llvm::StringSet<> Listed;
  for (const std::string &File : Files)
    Listed.insert(File);
  std::vector<std::string> Selected;
  for (const clang::tidy::FileFilter &File : Changed) {
    if (Listed.contains(File.Name)) {
      Selected.push_back(File.Name);
      continue;
    }
    llvm::StringRef Extension =
        llvm::sys::path::extension(File.Name).drop_front();
    static const char *const Headers[] = {"h",   "hh",  "hpp", "hxx", "h++",
                                          "inl", "ipp", "tpp", "cuh"};
    if (llvm::is_contained(Headers, Extension.lower()))
      return Files;
  }
  llvm::sort(Selected);
  return Selected;
}

} // namespace torch_tidy
