//===--- ResultCache.cpp - A file's analysis, replayed when nothing changed ===//

#include "ResultCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <nlohmann/json.hpp>
#include <chrono>
#include <ctime>
#include <set>

namespace torch_tidy {

using nlohmann::json;

/// Entries of another format are damaged entries: they are written again.
/// 2: one entry per configuration digest; 3: the cross-file facts carry
/// conditional supplies (chains), module arguments and returns.
static constexpr int Format = 3;

struct ResultCache::Entry {
  std::string Relative;
  json Fields;
  std::string Output;
};

/// Where the shared input list \p Digest lives.
static std::string entryPath(llvm::StringRef Kind, llvm::StringRef Digest) {
  return (Kind + "/" + Digest.take_front(2) + "/" + Digest + ".json").str();
}

/// The directory of \p File's entries, one per configuration.
static std::string entriesOf(const std::string &File) {
  std::string Digest = digestOf(File);
  return "results/" + Digest.substr(0, 2) + "/" + Digest;
}

static std::string entryPath(const CacheKey &Key) {
  return entriesOf(Key.File) + "/" + Key.Config + ".json";
}

/// What differs between the settings \p Then and \p Now: "the check
/// options changed: device-sync-in-loop.ReportNecessary", "the configuration
/// changed: Checks".
static std::string changedSettings(const json &Then,
                                   const std::map<std::string, std::string> &Now) {
  std::set<std::string> Names;
  if (Then.is_object())
    for (const auto &[Name, Value] : Then.items())
      Names.insert(Name);
  for (const auto &[Name, Value] : Now)
    Names.insert(Name);
  std::vector<std::string> Options, Others;
  llvm::StringRef OptionPrefix = "CheckOptions.";
  for (const std::string &Name : Names) {
    auto It = Now.find(Name);
    json Was = Then.is_object() ? Then.value(Name, json()) : json();
    if (It != Now.end() && Was.is_string() && Was.get<std::string>() == It->second)
      continue;
    if (llvm::StringRef(Name).starts_with(OptionPrefix))
      Options.push_back(Name.substr(OptionPrefix.size()));
    else
      Others.push_back(Name);
  }
  std::string Text;
  if (!Others.empty())
    Text = "the configuration changed: " + llvm::join(Others, ", ");
  if (!Options.empty())
    Text += (Text.empty() ? "" : "; ") +
            ("the check options changed: " + llvm::join(Options, ", "));
  return Text.empty() ? "the configuration changed" : Text;
}

static json inputList(const std::vector<std::string> &Files,
                      FileDigests &Digests) {
  json List = json::array();
  for (const std::string &File : Files)
    List.push_back({File, Digests.of(File).Hex});
  return List;
}

std::optional<ResultCache::Entry>
ResultCache::readEntry(const CacheKey &Key, std::string &Problem) {
  Entry E{entryPath(Key), json(), ""};
  std::optional<std::string> Text = Directory.read(E.Relative);
  if (!Text) {
    Problem = otherConfiguration(Key);
    return std::nullopt;
  }
  E.Fields = json::parse(*Text, nullptr, /*allow_exceptions=*/false);
  const json &F = E.Fields;
  bool Whole = F.is_object() && F.value("format", 0) == Format &&
               F.value("file", "") == Key.File && F.contains("output") &&
               F["output"].is_string() && F.contains("inputs") &&
               F["inputs"].is_array();
  if (Whole) {
    E.Output = F["output"].get<std::string>();
    Whole = F.value("outputDigest", "") == digestOf(E.Output);
  }
  if (!Whole) {
    Problem = "its cache entry is damaged";
    return std::nullopt;
  }
  return E;
}

/// The first of \p Inputs ([[file, digest], ...]) whose contents differ now.
static std::string changedInput(const json &Inputs, const std::string &File,
                                FileDigests &Digests) {
  for (const json &Input : Inputs) {
    if (!Input.is_array() || Input.size() != 2 || !Input[0].is_string() ||
        !Input[1].is_string())
      return "its cache entry is damaged";
    std::string Path = Input[0].get<std::string>();
    const std::string &Now = Digests.of(Path).Hex;
    if (Now == Input[1].get<std::string>())
      continue;
    if (Path == File)
      return "it changed";
    return "'" + Path + "' " + (Now.empty() ? "is gone" : "changed");
  }
  return "";
}

std::string ResultCache::staleness(const Entry &E, const CacheKey &Key) {
  const json &F = E.Fields;
  if (F.value("tool", "") != Key.Tool)
    return "torch-tidy changed";
  if (F.value("command", "") != Key.Command)
    return "its compile command changed";
  std::string Changed = changedInput(F["inputs"], Key.File, Digests);
  if (!Changed.empty())
    return Changed;
  std::string Shared = F.value("sharedInputs", "");
  if (Shared.empty())
    return "";
  std::optional<std::string> Text = Directory.read(entryPath("inputs", Shared));
  json List = Text && digestOf(*Text) == Shared
                  ? json::parse(*Text, nullptr, false)
                  : json();
  if (!List.is_array())
    return "its list of inputs is no longer in the cache";
  return changedInput(List, Key.File, Digests);
}

/// Why \p Key's configuration has no entry: what changed since the one
/// used last, if the file has any.
std::string ResultCache::otherConfiguration(const CacheKey &Key) {
  for (const std::string &Relative : Directory.listByUse(entriesOf(Key.File))) {
    std::optional<std::string> Text = Directory.read(Relative);
    json Fields = Text ? json::parse(*Text, nullptr, false) : json();
    if (Fields.is_object() && Fields.value("file", "") == Key.File)
      return changedSettings(Fields.value("settings", json()), Key.Settings);
  }
  return "it is not in the cache";
}

/// Removes \p Key's file's entries of all but its most recently used
/// configurations.
void ResultCache::keepFewConfigurations(const CacheKey &Key) {
  std::vector<std::string> Entries = Directory.listByUse(entriesOf(Key.File));
  for (size_t I = ConfigurationsPerFile; I < Entries.size(); ++I)
    Directory.remove(Entries[I]);
}

CacheLookup ResultCache::lookup(const CacheKey &Key) {
  std::string Problem;
  std::optional<Entry> E = readEntry(Key, Problem);
  if (!E)
    return {std::nullopt, Problem};
  std::string Stale = staleness(*E, Key);
  if (!Stale.empty())
    return {std::nullopt, Stale};
  Directory.touch(E->Relative);
  if (std::string Shared = E->Fields.value("sharedInputs", ""); !Shared.empty())
    Directory.touch(entryPath("inputs", Shared));
  return {std::move(E->Output), ""};
}

static std::string now() {
  std::time_t T = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&T));
  return Text;
}

void ResultCache::store(const CacheKey &Key, llvm::StringRef Output,
                        const std::vector<std::string> &Read,
                        const std::vector<std::string> &ReadThroughPch,
                        llvm::sys::TimePoint<> Started,
                        llvm::StringRef Because) {
  for (const auto *Files : {&Read, &ReadThroughPch})
    for (const std::string &File : *Files) {
      const FileDigests::Digest &D = Digests.of(File);
      if (D.Hex.empty() || D.Modified > Started)
        return;
    }
  json Entry = {{"format", Format},
                {"file", Key.File},
                {"tool", Key.Tool},
                {"command", Key.Command},
                {"config", Key.Config},
                {"settings", Key.Settings},
                {"inputs", inputList(Read, Digests)},
                {"analysed", now()},
                {"because", Because},
                {"output", Output},
                {"outputDigest", digestOf(Output)}};
  if (!ReadThroughPch.empty()) {
    // The files of a shared precompiled header: one list for all its files.
    std::string List = inputList(ReadThroughPch, Digests).dump();
    std::string Shared = digestOf(List);
    std::string Relative = entryPath("inputs", Shared);
    if (!Directory.read(Relative))
      if (llvm::Error Err = Directory.write(Relative, List)) {
        llvm::consumeError(std::move(Err));
        return;
      }
    Entry["sharedInputs"] = Shared;
  }
  llvm::consumeError(Directory.write(entryPath(Key), Entry.dump()));
  keepFewConfigurations(Key);
}

std::string ResultCache::explain(const CacheKey &Key) {
  std::string Problem;
  std::optional<Entry> E = readEntry(Key, Problem);
  if (!E)
    return Key.File + ": analysed on the next run: " + Problem + "\n";
  std::string Stale = staleness(*E, Key);
  std::string Text =
      Stale.empty()
          ? Key.File + ": up to date: the next run replays its cached analysis\n"
          : Key.File + ": analysed on the next run: " + Stale + "\n";
  return Text + llvm::formatv("  last analysed {0}: {1}\n",
                              E->Fields.value("analysed", "at an unknown time"),
                              E->Fields.value("because", "unknown"))
                    .str();
}

} // namespace torch_tidy
