//===--- SharedPrefixPlan.cpp - Which files share which headers -----------===//

#include "SharedPrefixPlan.h"
#include <algorithm>
#include <map>

namespace torch_tidy {

namespace {

bool startsWith(const std::vector<std::string> &List,
                const std::vector<std::string> &Prefix) {
  return List.size() >= Prefix.size() &&
         std::equal(Prefix.begin(), Prefix.end(), List.begin());
}

/// The prefix most of \p Group's files start with (the longest among equals),
/// or an empty one when fewer than \p MinFiles share any.
std::vector<std::string>
mostSharedPrefix(const std::vector<const PrefixCandidate *> &Group,
                 size_t MinFiles) {
  std::map<std::vector<std::string>, size_t> Count;
  for (const PrefixCandidate *C : Group)
    for (size_t Length = 1; Length <= C->LeadingIncludes.size(); ++Length)
      ++Count[std::vector<std::string>(C->LeadingIncludes.begin(),
                                       C->LeadingIncludes.begin() + Length)];
  const std::vector<std::string> *Best = nullptr;
  size_t BestCount = 0;
  for (const auto &[Prefix, N] : Count)
    if (N >= MinFiles &&
        (N > BestCount || (N == BestCount && Prefix.size() > Best->size()))) {
      Best = &Prefix;
      BestCount = N;
    }
  return Best ? *Best : std::vector<std::string>();
}

} // namespace

std::vector<SharedPrefix>
planSharedPrefixes(const std::vector<PrefixCandidate> &Candidates,
                   size_t MinFiles) {
  // Groups in the order of their first file, for a plan that does not depend
  // on anything but the input.
  std::vector<std::string> Keys;
  std::map<std::string, std::vector<const PrefixCandidate *>> Groups;
  for (const PrefixCandidate &C : Candidates) {
    if (C.LeadingIncludes.empty())
      continue;
    auto [It, Inserted] = Groups.try_emplace(C.CommandKey);
    if (Inserted)
      Keys.push_back(C.CommandKey);
    It->second.push_back(&C);
  }
  std::vector<SharedPrefix> Plan;
  for (const std::string &Key : Keys) {
    std::vector<const PrefixCandidate *> Left = Groups[Key];
    while (true) {
      std::vector<std::string> Prefix = mostSharedPrefix(Left, MinFiles);
      if (Prefix.empty())
        break;
      SharedPrefix Shared{Key, Prefix, {}};
      std::vector<const PrefixCandidate *> Rest;
      for (const PrefixCandidate *C : Left)
        if (startsWith(C->LeadingIncludes, Prefix))
          Shared.Files.push_back(C->File);
        else
          Rest.push_back(C);
      Plan.push_back(std::move(Shared));
      Left = std::move(Rest);
    }
  }
  return Plan;
}

} // namespace torch_tidy
