//===--- CrashReport.cpp - A finding for a file whose analysis crashed ----===//

#include "CrashReport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

namespace torch_tidy {

/// `<file>:<line>:<col>` anywhere in \p Text (a declaration's range
/// `</a/b.cpp:56:1, line:83:1>` or a parser position `a.cpp:1:2: ...`).
static void findPosition(llvm::StringRef Text, CrashContext &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Groups;
  llvm::Regex Position("([^ <>,:]+):([0-9]+):([0-9]+)");
  if (!Position.match(Text, &Groups))
    return;
  Out.File = Groups[1].str();
  Groups[2].getAsInteger(10, Out.Line);
  Groups[3].getAsInteger(10, Out.Column);
}

std::optional<CrashContext> parseStackDump(llvm::StringRef Stderr) {
  size_t Start = Stderr.find("Stack dump:\n");
  if (Start == llvm::StringRef::npos)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Stderr.substr(Start).split(Lines, '\n');
  // Entries are "N.\t<text>" with continuation lines starting with a tab;
  // the last one is the innermost.
  llvm::Regex Entry("^[0-9]+\\.\t(.*)$");
  std::string Innermost, Continuation;
  for (size_t I = 1; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 2> Groups;
    if (Entry.match(Lines[I], &Groups)) {
      if (Groups[1].starts_with("Program arguments:"))
        continue;
      Innermost = Groups[1].str();
      Continuation.clear();
    } else if (Lines[I].starts_with("\t") && !Innermost.empty() &&
               Continuation.empty()) {
      Continuation = Lines[I].trim().str();
    } else if (!Lines[I].starts_with("\t")) {
      break; // the backtrace or the bound nodes follow the entries
    }
  }
  if (Innermost.empty())
    return std::nullopt;
  CrashContext Out;
  llvm::SmallVector<llvm::StringRef, 2> Groups;
  llvm::Regex Matcher("^ASTMatcher: Processing '([^']+)' against:");
  if (Matcher.match(Innermost, &Groups)) {
    Out.Check = Groups[1].str();
    // "FunctionDecl train : </a.cpp:56:1, line:83:1>"
    Out.Declaration = llvm::StringRef(Continuation).split(" : ").first.str();
    findPosition(Continuation, Out);
  } else {
    // "a.cpp:1:2: current parser token 'pragma'": the position goes to the
    // finding's location, the rest to its message.
    findPosition(Innermost, Out);
    llvm::StringRef Rest = Innermost;
    if (Out.File && Rest.starts_with(*Out.File))
      Rest = Rest.split(": ").second;
    Out.Declaration = Rest.str();
  }
  return Out;
}

/// The byte offset of a 1-based line and column of \p File, if it exists.
static std::optional<unsigned> offsetOf(const std::string &File, unsigned Line,
                                        unsigned Column) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer || Line == 0 || Column == 0)
    return std::nullopt;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  size_t Offset = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Offset = Text.find('\n', Offset);
    if (Offset == llvm::StringRef::npos)
      return std::nullopt;
    ++Offset;
  }
  return std::min<size_t>(Offset + Column - 1, Text.size());
}

Finding crashFinding(const std::string &File, llvm::StringRef How,
                     llvm::StringRef Stderr, SourceIndex &Index) {
  Finding F;
  F.Check = CrashCheckName.str();
  F.IsError = true;
  F.Where.File = File;
  std::string What;
  if (std::optional<CrashContext> Context = parseStackDump(Stderr)) {
    if (!Context->Check.empty())
      What = " in check '" + Context->Check + "' while processing '" +
             Context->Declaration + "'";
    else
      What = " at '" + Context->Declaration + "'";
    // Point at the declaration when it is in this file; a header's position
    // is named in the message.
    if (Context->File && *Context->File == File) {
      if (auto Offset = offsetOf(File, Context->Line, Context->Column))
        F.Where.Offset = *Offset;
    } else if (Context->File) {
      What += " (" + *Context->File + ":" + std::to_string(Context->Line) +
              ":" + std::to_string(Context->Column) + ")";
    }
  }
  F.Message = "torch-tidy crashed analysing this file (" + How.str() + ")" +
              What + "; the file has no findings, the other files are "
                     "not affected";
  Index.locate(F.Where);
  return F;
}

} // namespace torch_tidy
