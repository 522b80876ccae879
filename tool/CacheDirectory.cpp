//===--- CacheDirectory.cpp - Where the caches live -----------------------===//

#include "CacheDirectory.h"
#include "FixApplier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <chrono>
#include <vector>

namespace torch_tidy {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// The layout of the directory: a new one gets a new name, never a mix.
static constexpr llvm::StringLiteral Layout = "v1";

std::string CacheDirectory::defaultRoot() {
  llvm::SmallString<256> Root;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Root = *Xdg;
  else if (auto Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    path::append(Root, *Home, ".cache");
  else
    return "";
  path::append(Root, "torch-tidy");
  return std::string(Root);
}

llvm::Expected<CacheDirectory> CacheDirectory::open(llvm::StringRef Root,
                                                    uint64_t Limit) {
  llvm::SmallString<256> Versioned(Root);
  fs::make_absolute(Versioned);
  path::append(Versioned, Layout);
  if (std::error_code EC = fs::create_directories(Versioned))
    return llvm::createStringError(EC, "cannot create the cache directory '%s': %s",
                                   Root.str().c_str(), EC.message().c_str());
  if (fs::access(Versioned, fs::AccessMode::Write))
    return llvm::createStringError(std::errc::permission_denied,
                                   "cannot write the cache directory '%s'",
                                   Root.str().c_str());
  // Backup tools skip a directory tagged so (bford.info/cachedir).
  llvm::SmallString<256> Tag(Root);
  path::append(Tag, "CACHEDIR.TAG");
  if (!fs::exists(Tag))
    llvm::consumeError(writeFileAtomically(
        Tag, "Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This directory is torch-tidy's cache: see its --cache-dir.\n"));
  return CacheDirectory(std::string(Versioned), Limit);
}

std::string CacheDirectory::path(llvm::StringRef Relative) const {
  llvm::SmallString<256> Full(Root);
  path::append(Full, Relative);
  return std::string(Full);
}

std::optional<std::string> CacheDirectory::read(llvm::StringRef Relative) const {
  auto Buffer = llvm::MemoryBuffer::getFile(path(Relative), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

llvm::Error CacheDirectory::write(llvm::StringRef Relative,
                                  llvm::StringRef Contents) const {
  std::string Full = path(Relative);
  if (std::error_code EC = fs::create_directories(path::parent_path(Full)))
    return llvm::createStringError(EC, "cannot create '%s': %s",
                                   path::parent_path(Full).str().c_str(),
                                   EC.message().c_str());
  return writeFileAtomically(Full, Contents);
}

void CacheDirectory::touch(llvm::StringRef Relative) const {
  int FD;
  if (fs::openFileForWrite(path(Relative), FD, fs::CD_OpenExisting,
                           fs::OF_Append))
    return;
  fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

std::vector<std::string>
CacheDirectory::listByUse(llvm::StringRef Relative) const {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Files;
  std::error_code EC;
  for (fs::directory_iterator It(path(Relative), EC), End; It != End && !EC;
       It.increment(EC)) {
    fs::file_status Status;
    llvm::StringRef Name = path::filename(It->path());
    if (fs::status(It->path(), Status) || !fs::is_regular_file(Status) ||
        Name.contains(".torch-tidy-"))
      continue;
    Files.emplace_back(Status.getLastModificationTime(),
                       (Relative + "/" + Name).str());
  }
  llvm::sort(Files, [](const auto &A, const auto &B) { return A > B; });
  std::vector<std::string> Paths;
  for (auto &[Used, Path] : Files)
    Paths.push_back(std::move(Path));
  return Paths;
}

void CacheDirectory::remove(llvm::StringRef Relative) const {
  fs::remove(path(Relative));
}

namespace {

/// What eviction removes at once: a file, or a precompiled header's
/// directory.
struct Unit {
  std::string Path;
  bool IsDirectory;
  uint64_t Size = 0;
  llvm::sys::TimePoint<> Used;
};

/// A temporary that a write interrupted an hour ago or more left behind.
bool isStaleTemporary(llvm::StringRef Path, const fs::file_status &Status) {
  return path::filename(Path).contains(".torch-tidy-") &&
         std::chrono::system_clock::now() - Status.getLastModificationTime() >
             std::chrono::hours(1);
}

/// The size and newest modification of the files under \p Dir.
void measure(const std::string &Dir, Unit &U) {
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    fs::file_status Status;
    if (fs::status(It->path(), Status) || !fs::is_regular_file(Status))
      continue;
    if (isStaleTemporary(It->path(), Status)) {
      fs::remove(It->path());
      continue;
    }
    U.Size += Status.getSize();
    U.Used = std::max(U.Used, Status.getLastModificationTime());
  }
}

} // namespace

void CacheDirectory::evict() const {
  std::vector<Unit> Units;
  for (llvm::StringRef Kind : {"results", "inputs", "pch"}) {
    std::error_code EC;
    for (fs::recursive_directory_iterator It(path(Kind), EC), End;
         It != End && !EC; It.increment(EC)) {
      fs::file_status Status;
      if (fs::status(It->path(), Status))
        continue;
      bool PchDirectory = Kind == "pch" && It.level() == 0 &&
                          fs::is_directory(Status);
      if (PchDirectory) {
        Unit U{It->path(), true};
        measure(It->path(), U);
        Units.push_back(U);
        It.no_push();
      } else if (fs::is_regular_file(Status)) {
        if (isStaleTemporary(It->path(), Status)) {
          fs::remove(It->path());
          continue;
        }
        Units.push_back({It->path(), false, Status.getSize(),
                         Status.getLastModificationTime()});
      }
    }
  }
  uint64_t Total = 0;
  for (const Unit &U : Units)
    Total += U.Size;
  if (Total <= Limit)
    return;
  llvm::sort(Units, [](const Unit &A, const Unit &B) { return A.Used < B.Used; });
  for (const Unit &U : Units) {
    if (Total <= Limit / 10 * 9)
      break;
    if (U.IsDirectory)
      fs::remove_directories(U.Path);
    else
      fs::remove(U.Path);
    Total -= U.Size;
  }
}

std::optional<uint64_t> parseSize(llvm::StringRef Text) {
  uint64_t Scale = 1;
  if (!Text.empty()) {
    switch (llvm::toUpper(Text.back())) {
    case 'K': Scale = uint64_t(1) << 10; break;
    case 'M': Scale = uint64_t(1) << 20; break;
    case 'G': Scale = uint64_t(1) << 30; break;
    default: break;
    }
    if (Scale != 1)
      Text = Text.drop_back();
  }
  uint64_t Value;
  if (Text.empty() || Text.getAsInteger(10, Value) ||
      Value > UINT64_MAX / Scale)
    return std::nullopt;
  return Value * Scale;
}

} // namespace torch_tidy
