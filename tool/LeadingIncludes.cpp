//===--- LeadingIncludes.cpp - The headers a file starts with -------------===//

#include "LeadingIncludes.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

using namespace clang;

namespace {

/// The header name of an include directive's rest of line: `<a/b.h>` or
/// `"b.h"`, followed by nothing but blanks and comments.
std::optional<llvm::StringRef> headerName(llvm::StringRef Line) {
  Line = Line.ltrim(" \t");
  char Close = Line.starts_with("<") ? '>' : Line.starts_with("\"") ? '"' : 0;
  size_t End = Close ? Line.find(Close, 1) : llvm::StringRef::npos;
  if (End == llvm::StringRef::npos || End == 1)
    return std::nullopt;
  llvm::StringRef Rest = Line.drop_front(End + 1).trim(" \t\r");
  if (!Rest.empty() && !Rest.starts_with("//") &&
      !(Rest.starts_with("/*") && Rest.ends_with("*/") &&
        Rest.drop_front(2).drop_back(2).find("*/") == llvm::StringRef::npos))
    return std::nullopt;
  return Line.take_front(End + 1);
}

llvm::StringRef firstWord(llvm::StringRef Line) {
  return Line.ltrim(" \t").take_while(
      [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

class Scanner {
public:
  Scanner(llvm::ArrayRef<std::string> QuotedDirs, ReadFile Read)
      : QuotedDirs(QuotedDirs), Read(Read) {}

  std::vector<std::string> Found;

  /// Appends the leading includes of \p Path. True when the whole file is
  /// includes (a header one can look through to what follows it).
  bool scan(const std::string &Path, unsigned Depth) {
    if (Depth > 16)
      return false;
    std::optional<std::string> Text = Read(Path);
    if (!Text)
      return false;
    llvm::StringRef Buffer(*Text);
    unsigned Start = Buffer.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    LangOptions Lang;
    Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = true;
    Lexer Lex(SourceLocation(), Lang, Buffer.begin(), Buffer.begin() + Start,
              Buffer.end());
    bool IsHeader = Depth > 0;
    bool FirstDirective = true;
    // `#ifndef G` seen, `#define G` expected next; then inside that guard.
    std::optional<std::string> Guard;
    bool InGuard = false;
    Token Tok;
    while (true) {
      Lex.LexFromRawLexer(Tok);
      if (Tok.is(tok::eof))
        return IsHeader && !Guard;
      if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
        return false;
      Lex.LexFromRawLexer(Tok);
      if (!Tok.is(tok::raw_identifier))
        return false;
      llvm::StringRef Directive = Tok.getRawIdentifier();
      bool First = std::exchange(FirstDirective, false);
      bool AfterIfndef = Guard.has_value();
      const char *LineStart = Lex.getBufferLocation();
      const char *LineEnd = std::find(LineStart, Buffer.end(), '\n');
      llvm::StringRef Line(LineStart, LineEnd - LineStart);
      if (Line.rtrim("\r").ends_with("\\"))
        return false; // a directive continued on the next line
      if (AfterIfndef && (Directive != "define" || firstWord(Line) != *Guard))
        return false; // `#ifndef G` is no include guard
      if (Directive == "include") {
        std::optional<llvm::StringRef> Name = headerName(Line);
        if (!Name || !include(Path, *Name, Depth))
          return false;
      } else if (IsHeader && Directive == "pragma" && Line.trim() == "once") {
        Guarded.insert(Path);
      } else if (IsHeader && First && Directive == "ifndef") {
        Guard = firstWord(Line).str();
        if (Guard->empty())
          return false;
      } else if (AfterIfndef) { // `#define G`
        Guarded.insert(Path);
        Guard.reset();
        InGuard = true;
      } else if (InGuard && Directive == "endif") {
        // The end of the include guard: nothing may follow it.
        Lex.seek(LineEnd - Buffer.begin(), false);
        Lex.LexFromRawLexer(Tok);
        return Tok.is(tok::eof);
      } else {
        return false;
      }
      Lex.seek(LineEnd - Buffer.begin(), false);
    }
  }

private:
  bool include(const std::string &Includer, llvm::StringRef Name,
               unsigned Depth) {
    if (std::optional<std::string> Own = projectHeader(Includer, Name)) {
      // Its leading includes are the file's next ones.
      if (Entered.contains(*Own))
        return Guarded.contains(*Own); // included again: skipped if guarded
      Entered.insert(*Own);
      return scan(*Own, Depth + 1);
    }
    if (!llvm::is_contained(Found, Name))
      Found.push_back(Name.str());
    return true;
  }

  /// Where a quoted \p Name is found beside \p Includer or in QuotedDirs.
  std::optional<std::string> projectHeader(const std::string &Includer,
                                           llvm::StringRef Name) {
    if (!Name.starts_with("\""))
      return std::nullopt;
    llvm::StringRef Relative = Name.drop_front().drop_back();
    std::vector<std::string> Dirs = {
        llvm::sys::path::parent_path(Includer).str()};
    Dirs.insert(Dirs.end(), QuotedDirs.begin(), QuotedDirs.end());
    for (const std::string &Dir : Dirs) {
      llvm::SmallString<256> Candidate(Dir);
      llvm::sys::path::append(Candidate, Relative);
      if (Read(std::string(Candidate)))
        return std::string(Candidate);
    }
    return std::nullopt;
  }

  llvm::ArrayRef<std::string> QuotedDirs;
  ReadFile Read;
  llvm::StringSet<> Entered, Guarded;
};

} // namespace

std::vector<std::string> leadingIncludes(const std::string &File,
                                         llvm::ArrayRef<std::string> QuotedDirs,
                                         ReadFile Read) {
  Scanner Scan(QuotedDirs, Read);
  Scan.scan(File, 0);
  return std::move(Scan.Found);
}

std::vector<std::string> quotedIncludeDirs(llvm::ArrayRef<std::string> CommandLine,
                                           llvm::StringRef Directory) {
  std::vector<std::string> Quote, Angled;
  for (size_t I = 0; I < CommandLine.size(); ++I) {
    llvm::StringRef Arg = CommandLine[I];
    std::vector<std::string> *Into = nullptr;
    for (auto [Flag, List] : {std::pair{llvm::StringRef("-iquote"), &Quote},
                              std::pair{llvm::StringRef("-I"), &Angled}})
      if (Arg.consume_front(Flag)) {
        Into = List;
        break;
      }
    if (!Into)
      continue;
    if (Arg.empty()) {
      if (++I == CommandLine.size())
        break;
      Arg = CommandLine[I];
    }
    llvm::SmallString<256> Dir(Arg);
    llvm::sys::fs::make_absolute(Directory, Dir);
    Into->push_back(std::string(Dir));
  }
  Quote.insert(Quote.end(), Angled.begin(), Angled.end());
  return Quote;
}

} // namespace torch_tidy
