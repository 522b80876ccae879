//===--- SharedPch.cpp - Precompiled headers that files share -------------===//

#include "SharedPch.h"
#include "FixApplier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <nlohmann/json.hpp>
#include <chrono>

namespace torch_tidy {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using nlohmann::json;

PchSlot SharedPchStore::slotFor(const SharedPrefix &Prefix,
                                llvm::StringRef Tool) const {
  DigestBuilder Key;
  Key.add(Tool).add(Prefix.CommandKey);
  for (const std::string &Include : Prefix.Includes)
    Key.add(Include);
  llvm::SmallString<256> Dir(Directory);
  path::append(Dir, Key.hex());
  auto In = [&](llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    path::append(P, Name);
    return std::string(P);
  };
  return {In("prefix.hpp"), In("prefix.pch"), In("inputs.json")};
}

bool SharedPchStore::isValid(const PchSlot &Slot) const {
  auto Text = llvm::MemoryBuffer::getFile(Slot.Inputs);
  if (!Text || !fs::exists(Slot.Pch) || !fs::exists(Slot.PrefixHeader))
    return false;
  json Inputs = json::parse((*Text)->getBuffer(), nullptr, false);
  if (!Inputs.is_array() || Inputs.empty())
    return false;
  for (const json &Input : Inputs)
    if (!Input.is_array() || Input.size() != 2 || !Input[0].is_string() ||
        Digests.of(Input[0].get<std::string>()).Hex != Input[1])
      return false;
  return true;
}

llvm::Expected<std::string>
SharedPchStore::prepare(const PchSlot &Slot, const SharedPrefix &Prefix) const {
  std::string Text = "// torch-tidy: the headers that files whose compile "
                     "commands agree start with\n";
  for (const std::string &Include : Prefix.Includes)
    Text += "#include " + Include + "\n";
  if (std::error_code EC =
          fs::create_directories(path::parent_path(Slot.PrefixHeader)))
    return llvm::createStringError(EC, "cannot create '%s': %s",
                                   path::parent_path(Slot.PrefixHeader).str().c_str(),
                                   EC.message().c_str());
  // Rewritten with the same bytes when it exists: a header being read by
  // another run stays valid.
  if (llvm::Error Err = writeFileAtomically(Slot.PrefixHeader, Text))
    return std::move(Err);
  llvm::SmallString<256> Built;
  if (std::error_code EC = fs::createUniqueFile(
          Slot.Pch + ".torch-tidy-%%%%%%", Built))
    return llvm::createStringError(EC, "cannot create a file beside '%s': %s",
                                   Slot.Pch.c_str(), EC.message().c_str());
  return std::string(Built);
}

llvm::Error SharedPchStore::commit(const PchSlot &Slot, const std::string &Built,
                                   const std::vector<std::string> &Inputs) const {
  json List = json::array();
  for (const std::string &Input : Inputs) {
    const std::string &Digest = Digests.of(Input).Hex;
    if (Digest.empty())
      return llvm::createStringError(std::errc::no_such_file_or_directory,
                                     "'%s' is gone", Input.c_str());
    List.push_back({Input, Digest});
  }
  if (std::error_code EC = fs::rename(Built, Slot.Pch))
    return llvm::createStringError(EC, "cannot move '%s': %s", Built.c_str(),
                                   EC.message().c_str());
  // Written last: a header is valid once its inputs are recorded.
  return writeFileAtomically(Slot.Inputs, List.dump());
}

void SharedPchStore::touch(const PchSlot &Slot) const {
  int FD;
  if (fs::openFileForWrite(Slot.Pch, FD, fs::CD_OpenExisting, fs::OF_Append))
    return;
  fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

} // namespace torch_tidy
