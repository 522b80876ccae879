//===--- UnknownNames.cpp - Checks and options that name nothing ----------===//

#include "UnknownNames.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

namespace torch_tidy {

using namespace clang::tidy;

namespace {

struct KnownNames {
  llvm::StringSet<> Checks, Options;
  /// The checks and the globs of their groups ('device-*',
  /// 'clang-analyzer-*'): what a misspelt glob may have meant.
  llvm::StringSet<> Globs;
};

} // namespace

static const KnownNames &knownNames() {
  static const KnownNames Known = [] {
    NamesAndOptions All = getAllChecksAndOptions();
    KnownNames Names{std::move(All.Names), std::move(All.Options), {}};
    for (llvm::StringRef Check : Names.Checks.keys()) {
      Names.Globs.insert(Check);
      for (size_t Dash = Check.find('-'); Dash != llvm::StringRef::npos;
           Dash = Check.find('-', Dash + 1))
        Names.Globs.insert((Check.take_front(Dash + 1) + "*").str());
    }
    return Names;
  }();
  return Known;
}

/// The name of \p Names whose \p Part is nearest to \p Typo, when near enough
/// to be what was meant (a third of its letters changed at most); the first
/// in alphabetical order of those as near.
static std::optional<std::string>
closest(llvm::StringRef Typo, const llvm::StringSet<> &Names,
        llvm::function_ref<llvm::StringRef(llvm::StringRef)> Part) {
  unsigned Limit = std::max<size_t>(1, Typo.size() / 3);
  std::optional<std::string> Best;
  unsigned BestDistance = Limit + 1;
  for (llvm::StringRef Name : Names.keys()) {
    unsigned Distance = Typo.edit_distance_insensitive(Part(Name), true, Limit);
    if (Distance < BestDistance ||
        (Distance == BestDistance && Best && Name < *Best)) {
      Best = Name.str();
      BestDistance = Distance;
    }
  }
  return Best;
}

static llvm::StringRef whole(llvm::StringRef Name) { return Name; }

/// 'Strict' of 'device-factory-without-device.Strict'.
static llvm::StringRef localName(llvm::StringRef Key) {
  auto [Check, Local] = Key.rsplit('.');
  return Local.empty() ? Check : Local;
}

static std::string didYouMean(const std::optional<std::string> &Near,
                              llvm::StringRef Sign = "") {
  return Near ? "; did you mean '" + Sign.str() + *Near + "'?" : "";
}

std::vector<std::string> unknownChecks(llvm::StringRef Globs) {
  const KnownNames &Known = knownNames();
  std::vector<std::string> Problems;
  GlobList List(Globs);
  for (const auto &Item : List.getItems()) {
    if (Item.Text.empty() || Item.Text.starts_with("clang-diagnostic-"))
      continue;
    if (llvm::any_of(Known.Checks.keys(), [&](llvm::StringRef Check) {
          return Item.Regex.match(Check);
        }))
      continue;
    std::string Sign = Item.IsPositive ? "" : "-";
    std::string Glob = Sign + Item.Text.str();
    bool IsGlob = Item.Text.contains('*');
    Problems.push_back(
        (IsGlob ? "'" + Glob + "' matches no check"
                : "unknown check '" + Glob + "'") +
        didYouMean(
            closest(Item.Text, IsGlob ? Known.Globs : Known.Checks, whole),
            Sign));
  }
  return Problems;
}

std::vector<std::string>
unknownOptions(const ClangTidyOptions::OptionMap &Options) {
  const KnownNames &Known = knownNames();
  std::vector<llvm::StringRef> Keys;
  for (llvm::StringRef Key : Options.keys())
    if (!Known.Options.contains(Key))
      Keys.push_back(Key);
  llvm::sort(Keys);
  std::vector<std::string> Problems;
  for (llvm::StringRef Key : Keys) {
    // A typo in the option's name, else the right name on another check.
    std::optional<std::string> Near = closest(Key, Known.Options, whole);
    if (!Near)
      Near = closest(localName(Key), Known.Options, localName);
    Problems.push_back("unknown option '" + Key.str() + "'" + didYouMean(Near));
  }
  return Problems;
}

void warnEach(llvm::raw_ostream &OS, const llvm::Twine &Where,
              const std::vector<std::string> &Problems) {
  for (const std::string &Problem : Problems)
    OS << "torch-tidy: warning: " << Where << ": " << Problem << "\n";
}

void warnAboutUnknownNamesIn(const ClangTidyOptions &Options,
                             llvm::StringRef Source, llvm::raw_ostream &OS) {
  if (Options.Checks)
    warnEach(OS, Source + ": Checks", unknownChecks(*Options.Checks));
  if (Options.WarningsAsErrors)
    warnEach(OS, Source + ": WarningsAsErrors",
             unknownChecks(*Options.WarningsAsErrors));
  warnEach(OS, Source + ": CheckOptions", unknownOptions(Options.CheckOptions));
}

} // namespace torch_tidy
