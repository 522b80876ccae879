//===--- ShardTest.cpp - --shard=K/N --------------------------------------===//

#include "Shard.h"
#include <gtest/gtest.h>
#include <map>
#include <set>

namespace torch_tidy {
namespace {

TEST(ParseShard, KOfN) {
  auto Spec = parseShard("2/4");
  ASSERT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  EXPECT_EQ(Spec->Index, 2u);
  EXPECT_EQ(Spec->Count, 4u);
  for (const char *Bad : {"0/4", "5/4", "1/0", "1", "a/b", "1/2/3", "", "-1/2"}) {
    auto Wrong = parseShard(Bad);
    ASSERT_FALSE(bool(Wrong)) << Bad;
    std::string Message = llvm::toString(Wrong.takeError());
    EXPECT_NE(Message.find("K/N"), std::string::npos) << Message;
  }
}

TEST(SelectShard, EveryFileInExactlyOnePartBalancedInCountAndSize) {
  std::map<std::string, uint64_t> Sizes;
  std::vector<std::string> Files;
  for (unsigned I = 0; I < 23; ++I) {
    std::string Name = "/src/f" + std::to_string(I) + ".cpp";
    Files.push_back(Name);
    Sizes[Name] = 1000 + (I * 7919) % 5000; // sizes of no particular order
  }
  auto SizeOf = [&](const std::string &F) { return Sizes.at(F); };
  std::set<std::string> Seen;
  std::vector<uint64_t> Bytes;
  std::vector<size_t> Counts;
  for (unsigned K = 1; K <= 4; ++K) {
    std::vector<std::string> Part = selectShard(Files, {K, 4}, SizeOf);
    EXPECT_TRUE(std::is_sorted(Part.begin(), Part.end()));
    EXPECT_EQ(Part, selectShard(Files, {K, 4}, SizeOf)) << "deterministic";
    // The order of the input does not matter.
    std::vector<std::string> Reversed(Files.rbegin(), Files.rend());
    EXPECT_EQ(Part, selectShard(Reversed, {K, 4}, SizeOf));
    uint64_t Sum = 0;
    for (const std::string &F : Part) {
      EXPECT_TRUE(Seen.insert(F).second) << F << " in two parts";
      Sum += Sizes[F];
    }
    Bytes.push_back(Sum);
    Counts.push_back(Part.size());
  }
  EXPECT_EQ(Seen.size(), Files.size());
  EXPECT_LE(*std::max_element(Counts.begin(), Counts.end()) -
                *std::min_element(Counts.begin(), Counts.end()),
            1u);
  uint64_t Total = 0;
  for (uint64_t B : Bytes)
    Total += B;
  for (uint64_t B : Bytes) // within the largest file of a fair quarter
    EXPECT_LT(B > Total / 4 ? B - Total / 4 : Total / 4 - B, 6000u);
}

TEST(SelectShard, MorePartsThanFiles) {
  std::vector<std::string> Files = {"/a.cpp", "/b.cpp"};
  auto Zero = [](const std::string &) { return uint64_t(0); };
  EXPECT_EQ(selectShard(Files, {1, 3}, Zero), std::vector<std::string>{"/a.cpp"});
  EXPECT_EQ(selectShard(Files, {2, 3}, Zero), std::vector<std::string>{"/b.cpp"});
  EXPECT_TRUE(selectShard(Files, {3, 3}, Zero).empty());
  EXPECT_EQ(selectShard(Files, {1, 1}, Zero), Files);
}

} // namespace
} // namespace torch_tidy
