//===--- Baseline.cpp - Findings recorded to be ignored until they change -===//

#include "Baseline.h"
#include "FileContents.h"
#include "FixApplier.h"
#include "JsonFields.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <map>

namespace torch_tidy {

static constexpr llvm::StringLiteral FormatName = "torch-tidy-baseline";
static constexpr unsigned FormatVersion = 1;
/// The longest "line" written, for readers; longer ones are cut.
static constexpr size_t MaxLineBytes = 160;

std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef SourceRoot) {
  std::string Root = SourceRoot.rtrim('/').str() + "/";
  if (!SourceRoot.empty() && Path.starts_with(Root))
    return Path.drop_front(Root.size()).str();
  return Path.str();
}

namespace {

/// The text of the lines findings point at, reading each file once.
class LineReader {
public:
  llvm::StringRef lineOf(const Span &S) {
    if (S.File.empty())
      return "";
    llvm::StringRef Text = Files.of(S.File);
    size_t Offset = std::min<size_t>(S.Offset, Text.size());
    size_t Start = Offset ? Text.rfind('\n', Offset - 1) : llvm::StringRef::npos;
    Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
    return Text.slice(Start, Text.find('\n', Offset));
  }

private:
  FileContents Files;
};

/// The line without any whitespace: re-indenting or re-wrapping a
/// statement's spaces keeps its identity.
std::string normalised(llvm::StringRef Line) {
  std::string Out;
  for (char C : Line)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

/// \p Line trimmed and cut at MaxLineBytes (on a UTF-8 boundary).
std::string forReaders(llvm::StringRef Line) {
  Line = Line.trim();
  if (Line.size() <= MaxLineBytes)
    return Line.str();
  size_t Cut = MaxLineBytes;
  while (Cut > 0 && (static_cast<unsigned char>(Line[Cut]) & 0xC0) == 0x80)
    --Cut;
  return Line.take_front(Cut).str() + "...";
}

} // namespace

std::vector<FindingIdentity> identify(const std::vector<Finding> &Findings,
                                      llvm::StringRef SourceRoot) {
  LineReader Lines;
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> Seen;
  std::vector<FindingIdentity> Identities;
  for (const Finding &F : Findings) {
    FindingIdentity Id;
    Id.Rule = F.Check;
    Id.Path = relativeToRoot(F.Where.File, SourceRoot);
    llvm::StringRef Line = Lines.lineOf(F.Where);
    std::string Key = Id.Rule + '\0' + Id.Path + '\0' + normalised(Line);
    for (const Note &N : F.Notes)
      Key += '\0' + relativeToRoot(N.Where.File, SourceRoot) + '\0' +
             normalised(Lines.lineOf(N.Where));
    Id.Hash = llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true,
                              /*Width=*/16);
    Id.Occurrence = ++Seen[{Id.Rule, Id.Path, Id.Hash}];
    Id.Line = forReaders(Line);
    Identities.push_back(std::move(Id));
  }
  return Identities;
}

bool belongsInBaseline(const Finding &F) {
  return !F.isCompilerError(); // a crash is an error finding too
}

std::string formatBaseline(std::vector<FindingIdentity> Entries) {
  std::sort(Entries.begin(), Entries.end(),
            [](const FindingIdentity &A, const FindingIdentity &B) {
              return std::tie(A.Path, A.Rule, A.Hash, A.Occurrence) <
                     std::tie(B.Path, B.Rule, B.Hash, B.Occurrence);
            });
  std::string Text = "{\n  \"format\": \"" + FormatName.str() +
                     "\",\n  \"version\": " + std::to_string(FormatVersion) +
                     ",\n  \"findings\": [";
  for (size_t I = 0; I < Entries.size(); ++I) {
    const FindingIdentity &E = Entries[I];
    nlohmann::ordered_json Entry = {{"rule", E.Rule},
                                    {"path", E.Path},
                                    {"hash", E.Hash},
                                    {"occurrence", E.Occurrence},
                                    {"line", E.Line}};
    Text += (I ? ",\n    " : "\n    ") +
            Entry.dump(-1, ' ', false,
                       nlohmann::json::error_handler_t::replace);
  }
  Text += Entries.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return Text;
}

llvm::Error writeBaseline(llvm::StringRef Path,
                          const std::vector<Finding> &Findings,
                          const std::vector<FindingIdentity> &Identities) {
  std::vector<FindingIdentity> Entries;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (belongsInBaseline(Findings[I]))
      Entries.push_back(Identities[I]);
  return writeFileAtomically(Path, formatBaseline(std::move(Entries)));
}

static llvm::Error baselineError(llvm::StringRef Path,
                                 const llvm::Twine &Problem) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 "cannot read baseline '%s': %s",
                                 Path.str().c_str(), Problem.str().c_str());
}

llvm::Expected<std::vector<FindingIdentity>>
readBaseline(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return baselineError(Path, Buffer.getError().message());
  nlohmann::json J =
      nlohmann::json::parse((*Buffer)->getBuffer(), nullptr, false);
  if (J.is_discarded())
    return baselineError(Path, "not JSON");
  auto Field = [](const nlohmann::json &Object, const char *Key) {
    return Object.is_object() && Object.contains(Key) ? Object[Key]
                                                      : nlohmann::json();
  };
  if (Field(J, "format") != FormatName.str())
    return baselineError(Path, "not a torch-tidy baseline (no \"format\": \"" +
                                   FormatName + "\")");
  if (Field(J, "version") != FormatVersion)
    return baselineError(Path, "version " + Field(J, "version").dump() +
                                   ", not " + std::to_string(FormatVersion));
  nlohmann::json Findings = Field(J, "findings");
  if (!Findings.is_array())
    return baselineError(Path, "\"findings\" is not an array");
  std::vector<FindingIdentity> Entries;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const nlohmann::json &E = Findings[I];
    nlohmann::json Rule = Field(E, "rule"), File = Field(E, "path"),
                   Hash = Field(E, "hash"), Count = Field(E, "occurrence"),
                   Line = Field(E, "line");
    if (!Rule.is_string() || !File.is_string() || !Hash.is_string() ||
        !Count.is_number_unsigned() || Count.get<uint64_t>() == 0 ||
        Count.get<uint64_t>() > UINT32_MAX)
      return baselineError(Path, "finding " + std::to_string(I) +
                                     " lacks a rule, path, hash or occurrence");
    FindingIdentity Id;
    Id.Rule = Rule.get<std::string>();
    Id.Path = File.get<std::string>();
    Id.Hash = Hash.get<std::string>();
    Id.Occurrence = Count.get<unsigned>();
    if (Line.is_string())
      Id.Line = Line.get<std::string>();
    Entries.push_back(std::move(Id));
  }
  return Entries;
}

BaselineComparison
compareWithBaseline(const std::vector<Finding> &Findings,
                    const std::vector<FindingIdentity> &Identities,
                    const std::vector<FindingIdentity> &Baseline,
                    const std::optional<std::set<std::string>> &AnalysedPaths) {
  std::map<FindingIdentity::Key, bool> Recorded; // whether it was found
  for (const FindingIdentity &E : Baseline)
    Recorded.emplace(E.key(), false);
  BaselineComparison Result;
  for (size_t I = 0; I < Findings.size(); ++I) {
    auto It = Recorded.find(Identities[I].key());
    bool Unchanged = It != Recorded.end() && belongsInBaseline(Findings[I]);
    if (Unchanged)
      It->second = true;
    Result.Unchanged.push_back(Unchanged);
  }
  for (const FindingIdentity &E : Baseline) {
    auto It = Recorded.find(E.key());
    if (It->second)
      continue;
    It->second = true; // an entry written twice is absent once
    if (!AnalysedPaths || AnalysedPaths->count(E.Path))
      Result.Absent.push_back(E);
  }
  return Result;
}

} // namespace torch_tidy
