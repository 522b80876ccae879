//===--- TestFiles.cpp - Temporary directories and files for unit tests ---===//

#include "TestFiles.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>

namespace torch_tidy::test {

TempDir::TempDir() {
  llvm::SmallString<256> Dir;
  std::error_code EC =
      llvm::sys::fs::createUniqueDirectory("torch-tidy-unit", Dir);
  if (EC) {
    ADD_FAILURE() << "cannot create a temporary directory: " << EC.message();
    std::abort();
  }
  llvm::SmallString<256> Real;
  // Canonical, so that paths compare equal to the ones the code computes.
  Path = llvm::sys::fs::real_path(Dir, Real) ? std::string(Dir)
                                             : std::string(Real);
}

TempDir::~TempDir() { llvm::sys::fs::remove_directories(Path); }

std::string TempDir::file(const std::string &Relative) const {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::append(P, Relative);
  return std::string(P);
}

std::string TempDir::write(const std::string &Relative,
                           const std::string &Contents) const {
  std::string P = file(Relative);
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  EXPECT_FALSE(EC) << "cannot write " << P << ": " << EC.message();
  OS << Contents;
  return P;
}

std::vector<std::string> TempDir::list(const std::string &Relative) const {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Relative.empty() ? Path
                                                             : file(Relative),
                                            EC),
       End;
       It != End && !EC; It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  std::sort(Names.begin(), Names.end());
  return Names;
}

std::string readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    ADD_FAILURE() << "cannot read " << Path;
    return "";
  }
  return (*Buffer)->getBuffer().str();
}

unsigned offsetOf(const std::string &Text, const std::string &Needle,
                  unsigned Occurrence) {
  size_t At = Text.find(Needle);
  for (unsigned I = 0; I < Occurrence && At != std::string::npos; ++I)
    At = Text.find(Needle, At + 1);
  if (At == std::string::npos) {
    ADD_FAILURE() << "'" << Needle << "' not found";
    return 0;
  }
  return At;
}

Span spanAt(const std::string &File, unsigned Offset, unsigned Length) {
  SourceIndex Index;
  Span S{File, Offset, Length};
  Index.locate(S);
  return S;
}

} // namespace torch_tidy::test
