//===--- FixApplier.cpp - Apply fix-its to files, atomically --------------===//

#include "FixApplier.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

namespace torch_tidy {

using clang::tooling::Replacement;
using clang::tooling::Replacements;

llvm::Error writeFileAtomically(llvm::StringRef RequestedPath,
                                llvm::StringRef Contents) {
  // Through a symbolic link, replace the file it names and keep the link.
  llvm::SmallString<256> Resolved(RequestedPath);
  if (llvm::sys::fs::is_symlink_file(RequestedPath) &&
      llvm::sys::fs::real_path(RequestedPath, Resolved))
    Resolved = RequestedPath;
  llvm::StringRef Path = Resolved;
  llvm::SmallString<256> Temp;
  int FD;
  llvm::SmallString<256> Model(Path);
  Model += ".torch-tidy-%%%%%%";
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return llvm::createStringError(EC, "cannot create a temporary beside '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      llvm::sys::fs::remove(Temp);
      return llvm::createStringError(OS.error(), "cannot write '%s': %s",
                                     Temp.c_str(), OS.error().message().c_str());
    }
  }
  // Keep the original file's permissions.
  if (auto Status = llvm::sys::fs::getPermissions(Path))
    llvm::sys::fs::setPermissions(Temp, *Status);
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot replace '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

/// Adds all of \p Fixes or none of them.
static bool addAll(const std::vector<Edit> &Fixes,
                   std::map<std::string, Replacements> &ByFile) {
  std::map<std::string, Replacements> Trial = ByFile;
  for (const Edit &E : Fixes) {
    Replacement R(E.Where.File, E.Where.Offset, E.Where.Length, E.Replacement);
    // The same edit again (two findings with one fix) is applied once:
    // Replacements would concatenate two equal insertions.
    if (llvm::is_contained(Trial[E.Where.File], R))
      continue;
    if (llvm::Error Err = Trial[E.Where.File].add(R)) {
      llvm::consumeError(std::move(Err));
      return false;
    }
  }
  ByFile = std::move(Trial);
  return true;
}

/// The fixes applied for \p F: its own, or with \p FixNotes those of its
/// one note that has any (several such notes are alternatives: none).
static const std::vector<Edit> &fixesOf(const Finding &F, bool FixNotes) {
  static const std::vector<Edit> None;
  if (!F.Fixes.empty() || !FixNotes)
    return F.Fixes;
  const std::vector<Edit> *Found = &None;
  for (const Note &N : F.Notes)
    if (!N.Edits.empty()) {
      if (!Found->empty())
        return None;
      Found = &N.Edits;
    }
  return *Found;
}

FixSummary applyFixes(const std::vector<Finding> &Findings, bool FixNotes) {
  FixSummary Summary;
  std::map<std::string, Replacements> ByFile;
  for (const Finding &F : Findings) {
    const std::vector<Edit> &Fixes = fixesOf(F, FixNotes);
    if (Fixes.empty())
      continue;
    ++Summary.Suggested;
    if (addAll(Fixes, ByFile))
      ++Summary.Applied;
  }
  for (const auto &[File, Fixes] : ByFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer) {
      Summary.Errors.push_back("cannot read '" + File +
                               "': " + Buffer.getError().message());
      continue;
    }
    auto Fixed =
        clang::tooling::applyAllReplacements((*Buffer)->getBuffer(), Fixes);
    if (!Fixed) {
      Summary.Errors.push_back("cannot fix '" + File +
                               "': " + llvm::toString(Fixed.takeError()));
      continue;
    }
    if (llvm::Error Err = writeFileAtomically(File, *Fixed))
      Summary.Errors.push_back(llvm::toString(std::move(Err)));
  }
  return Summary;
}

} // namespace torch_tidy
