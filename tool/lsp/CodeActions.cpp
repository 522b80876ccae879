//===--- CodeActions.cpp - Quick fixes for the findings of a file ---------===//

#include "CodeActions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include <optional>

namespace torch_tidy::lsp {

using nlohmann::json;

/// Whether the request's `only` kinds take quick fixes.
static bool wantsQuickFixes(const json &Context) {
  if (!Context.is_object() || !Context.contains("only") ||
      !Context["only"].is_array())
    return true;
  for (const json &Kind : Context["only"])
    if (Kind.is_string() && (Kind == "" || Kind == "quickfix"))
      return true;
  return false;
}

static std::pair<int64_t, int64_t> point(const json &Position) {
  return {Position.value("line", int64_t(0)),
          Position.value("character", int64_t(0))};
}

/// Whether ranges \p A and \p B share a line: a cursor anywhere on a
/// finding's line asks for its fixes.
static bool shareALine(const json &A, const json &B) {
  return point(A["start"]).first <= point(B["end"]).first &&
         point(B["start"]).first <= point(A["end"]).first;
}

/// Whether \p Shown is one of the diagnostics the request names, or (when it
/// names none) is on a line of its range.
static bool asked(const ShownFinding &Shown, const json &Params) {
  const json &D = Shown.Diagnostic;
  const json &Context = Params.value("context", json::object());
  const json &Named = Context.value("diagnostics", json::array());
  if (Named.is_array() && !Named.empty())
    return llvm::any_of(Named, [&](const json &N) {
      return N.is_object() && N.value("code", json()) == D["code"] &&
             N.value("message", json()) == D["message"] &&
             N.contains("range") &&
             point(N["range"].value("start", json::object())) ==
                 point(D["range"]["start"]);
    });
  return Params.contains("range") && shareALine(D["range"], Params["range"]);
}

static std::optional<json> workspaceEdit(const std::vector<Edit> &Edits,
                                         SourceTexts &Texts,
                                         const ActionTarget &Target) {
  std::map<std::string, json> ByFile;
  for (const Edit &E : Edits) {
    const LineTable *Lines = Texts.lines(E.Where.File);
    if (!Lines)
      return std::nullopt;
    ByFile[E.Where.File].push_back(
        {{"range", Lines->range(E.Where.Offset, E.Where.Length, Target.Encoding)},
         {"newText", E.Replacement}});
  }
  if (Target.DocumentChanges) {
    json Changes = json::array();
    for (auto &[File, FileEdits] : ByFile)
      Changes.push_back(
          {{"textDocument",
            {{"uri", uriFromPath(File)},
             {"version", File == Target.File ? json(Target.Version) : json()}}},
           {"edits", std::move(FileEdits)}});
    return json{{"documentChanges", std::move(Changes)}};
  }
  json Changes = json::object();
  for (auto &[File, FileEdits] : ByFile)
    Changes[uriFromPath(File)] = std::move(FileEdits);
  return json{{"changes", std::move(Changes)}};
}

/// \p Text on one line (line breaks, and the spaces around them, become
/// one space), shortened for a title.
static std::string shortText(llvm::StringRef Text) {
  Text = Text.trim("\r\n");
  std::string Line;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '\n') {
      Line += Text[I];
      continue;
    }
    while (!Line.empty() && llvm::isSpace(Line.back()))
      Line.pop_back();
    while (I + 1 < Text.size() && llvm::isSpace(Text[I + 1]))
      ++I;
    Line += ' ';
  }
  if (Line.size() > 50)
    Line = Line.substr(0, 47) + "...";
  return Line;
}

/// What applying \p Edits does, for the action's title.
static std::string describe(const std::vector<Edit> &Edits, SourceTexts &Texts) {
  if (Edits.size() != 1)
    return "apply its " + std::to_string(Edits.size()) + " edits";
  const Edit &E = Edits.front();
  std::string Old = Texts.slice(E.Where.File, E.Where.Offset, E.Where.Length);
  if (Old.empty())
    return "insert '" + shortText(E.Replacement) + "'";
  if (E.Replacement.empty())
    return "remove '" + shortText(Old) + "'";
  return "change '" + shortText(Old) + "' to '" + shortText(E.Replacement) + "'";
}

/// The edit that suppresses \p F: a NOLINTNEXTLINE comment above its line,
/// or its check added to the one already there.
static std::optional<Edit> suppression(const Finding &F, SourceTexts &Texts) {
  const LineTable *Lines = Texts.lines(F.Where.File);
  if (!Lines)
    return std::nullopt;
  unsigned Line = Lines->lineOf(F.Where.Offset);
  if (Line > 0) {
    llvm::StringRef Above = Lines->line(Line - 1);
    llvm::SmallVector<llvm::StringRef, 3> Groups;
    llvm::Regex Existing("^[ \t]*//[ \t]*NOLINTNEXTLINE\\(([^)]*)\\)[ \t]*$");
    if (Existing.match(Above, &Groups)) {
      Edit E;
      E.Where.File = F.Where.File;
      E.Where.Offset = Lines->lineStart(Line - 1) +
                       (Groups[1].end() - Above.begin());
      E.Replacement = (Groups[1].trim().empty() ? "" : ",") + F.Check;
      return E;
    }
  }
  llvm::StringRef Text = Lines->line(Line);
  llvm::StringRef Indent = Text.take_while([](char C) {
    return C == ' ' || C == '\t';
  });
  Edit E;
  E.Where.File = F.Where.File;
  E.Where.Offset = Lines->lineStart(Line);
  E.Replacement = Indent.str() + "// NOLINTNEXTLINE(" + F.Check + ")\n";
  return E;
}

/// The rules' findings can be silenced by a comment; compiler errors and the
/// server's own diagnostics (a crash, no compile command) cannot.
static bool suppressible(const Finding &F, const std::string &File) {
  llvm::StringRef Check(F.Check);
  return F.Where.File == File && !Check.starts_with("clang-diagnostic-") &&
         !Check.starts_with("torch-tidy-");
}

json codeActions(const std::vector<ShownFinding> &Shown, SourceTexts &Texts,
                 const ActionTarget &Target, const json &Params) {
  json Actions = json::array();
  if (!wantsQuickFixes(Params.value("context", json::object())))
    return Actions;
  auto Add = [&](const ShownFinding &S, std::string Title,
                 const std::vector<Edit> &Edits, bool Preferred) {
    std::optional<json> Changes = workspaceEdit(Edits, Texts, Target);
    if (!Changes)
      return;
    json Action = {{"title", std::move(Title)},
                   {"kind", "quickfix"},
                   {"diagnostics", json::array({S.Diagnostic})},
                   {"edit", std::move(*Changes)}};
    if (Preferred)
      Action["isPreferred"] = true;
    Actions.push_back(std::move(Action));
  };
  for (const ShownFinding &S : Shown) {
    if (!asked(S, Params))
      continue;
    const Finding &F = S.Found;
    if (!F.Fixes.empty())
      Add(S, F.Check + ": " + describe(F.Fixes, Texts), F.Fixes, true);
    for (const Note &N : F.Notes)
      if (!N.Edits.empty())
        Add(S, F.Check + ": " + N.Message, N.Edits, false);
    if (suppressible(F, Target.File))
      if (std::optional<Edit> E = suppression(F, Texts))
        Add(S, "suppress with NOLINTNEXTLINE(" + F.Check + ")", {*E}, false);
  }
  return Actions;
}

} // namespace torch_tidy::lsp
