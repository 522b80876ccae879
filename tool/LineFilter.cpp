//===--- LineFilter.cpp - Findings on chosen lines only -------------------===//

#include "LineFilter.h"
#include "llvm/Support/JSON.h"

namespace torch_tidy {

/// What clang-tidy's YAML reader of the filter rejects, as one line:
/// the reader itself would print its complaint over several lines.
static std::optional<std::string> shapeProblem(const llvm::json::Value &V) {
  const llvm::json::Array *Files = V.getAsArray();
  if (!Files)
    return "not a JSON array";
  for (const llvm::json::Value &File : *Files) {
    const llvm::json::Object *Entry = File.getAsObject();
    if (!Entry)
      return "an entry is not an object";
    for (const auto &Member : *Entry)
      if (Member.first != "name" && Member.first != "lines")
        return "unknown key '" + Member.first.str() + "'";
    std::optional<llvm::StringRef> Name = Entry->getString("name");
    if (!Name || Name->empty())
      return "an entry has no \"name\"";
    const llvm::json::Value *Lines = Entry->get("lines");
    if (!Lines)
      continue;
    if (!Lines->getAsArray())
      return "\"lines\" of '" + Name->str() + "' is not an array";
    for (const llvm::json::Value &Range : *Lines->getAsArray()) {
      const llvm::json::Array *Pair = Range.getAsArray();
      if (!Pair || Pair->size() != 2)
        return "a line range of '" + Name->str() + "' is not [first, last]";
      for (const llvm::json::Value &Line : *Pair) {
        std::optional<int64_t> N = Line.getAsInteger();
        if (!N || *N <= 0 || *N > UINT32_MAX)
          return "a line range of '" + Name->str() +
                 "' has a line that is not a positive integer";
      }
    }
  }
  return std::nullopt;
}

llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Json) {
  auto Fail = [](const llvm::Twine &Problem) {
    return llvm::createStringError(std::errc::invalid_argument,
                                   "invalid --line-filter: %s",
                                   Problem.str().c_str());
  };
  auto Parsed = llvm::json::parse(Json);
  if (!Parsed)
    return Fail(llvm::toString(Parsed.takeError()));
  if (std::optional<std::string> Problem = shapeProblem(*Parsed))
    return Fail(*Problem);
  // clang-tidy's own reader, so that the filter means what it means there.
  clang::tidy::ClangTidyGlobalOptions Options;
  if (std::error_code EC = clang::tidy::parseLineFilter(Json, Options))
    return Fail(EC.message());
  return Options.LineFilter;
}

static bool passes(const LineFilter &Filter, const Span &Where) {
  if (Where.File.empty())
    return true;
  for (const clang::tidy::FileFilter &File : Filter) {
    if (!llvm::StringRef(Where.File).ends_with(File.Name))
      continue;
    if (File.LineRanges.empty())
      return true;
    return llvm::any_of(File.LineRanges, [&](const auto &Range) {
      return Range.first <= Where.Line && Where.Line <= Range.second;
    });
  }
  return false;
}

bool passesLineFilter(const LineFilter &Filter, const Finding &F) {
  // A crash is an error finding too (CrashReport.h).
  if (Filter.empty() || F.isCompilerError())
    return true;
  return passes(Filter, F.Where) ||
         llvm::any_of(F.Notes, [&](const Note &N) {
           return passes(Filter, N.Where);
         });
}

} // namespace torch_tidy
