//===--- SharedPrefixPlanTest.cpp - Which files share which headers -------===//

#include "SharedPrefixPlan.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using List = std::vector<std::string>;

TEST(SharedPrefixPlan, TheStartMostFilesShare) {
  std::vector<PrefixCandidate> Files = {
      {"a.cpp", "k", {"<torch/torch.h>", "<vector>"}},
      {"b.cpp", "k", {"<torch/torch.h>", "<vector>", "<map>"}},
      {"c.cpp", "k", {"<torch/torch.h>", "<string>"}},
      {"d.cpp", "k", {"<vector>"}},
  };
  std::vector<SharedPrefix> Plan = planSharedPrefixes(Files);
  ASSERT_EQ(Plan.size(), 1u);
  EXPECT_EQ(Plan[0].Includes, List{"<torch/torch.h>"});
  EXPECT_EQ(Plan[0].Files, (List{"a.cpp", "b.cpp", "c.cpp"}));
}

TEST(SharedPrefixPlan, LongestAmongTheMostShared) {
  std::vector<PrefixCandidate> Files = {
      {"a.cpp", "k", {"<torch/torch.h>", "<vector>", "<map>"}},
      {"b.cpp", "k", {"<torch/torch.h>", "<vector>", "<set>"}},
  };
  std::vector<SharedPrefix> Plan = planSharedPrefixes(Files);
  ASSERT_EQ(Plan.size(), 1u);
  EXPECT_EQ(Plan[0].Includes, (List{"<torch/torch.h>", "<vector>"}));
}

TEST(SharedPrefixPlan, OnlyFilesWhoseCommandsAgreeShare) {
  std::vector<PrefixCandidate> Files = {
      {"a.cpp", "k1", {"<torch/torch.h>"}},
      {"b.cpp", "k2", {"<torch/torch.h>"}},
      {"c.cpp", "k1", {"<torch/torch.h>"}},
      {"d.cpp", "k2", {"<torch/torch.h>"}},
      {"e.cpp", "k3", {"<torch/torch.h>"}},
  };
  std::vector<SharedPrefix> Plan = planSharedPrefixes(Files);
  ASSERT_EQ(Plan.size(), 2u);
  EXPECT_EQ(Plan[0].CommandKey, "k1");
  EXPECT_EQ(Plan[0].Files, (List{"a.cpp", "c.cpp"}));
  EXPECT_EQ(Plan[1].CommandKey, "k2");
  EXPECT_EQ(Plan[1].Files, (List{"b.cpp", "d.cpp"}));
}

TEST(SharedPrefixPlan, TheFilesLeftGetAPrefixOfTheirOwn) {
  std::vector<PrefixCandidate> Files = {
      {"a.cpp", "k", {"<torch/torch.h>"}},
      {"b.cpp", "k", {"<torch/torch.h>"}},
      {"c.cpp", "k", {"<torch/torch.h>"}},
      {"d.cpp", "k", {"<vector>", "<torch/torch.h>"}},
      {"e.cpp", "k", {"<vector>", "<torch/torch.h>"}},
      {"f.cpp", "k", {}},
  };
  std::vector<SharedPrefix> Plan = planSharedPrefixes(Files);
  ASSERT_EQ(Plan.size(), 2u);
  EXPECT_EQ(Plan[1].Includes, (List{"<vector>", "<torch/torch.h>"}));
  EXPECT_EQ(Plan[1].Files, (List{"d.cpp", "e.cpp"}));
  // With one file enough, a lone file gets its whole list.
  std::vector<SharedPrefix> Lone = planSharedPrefixes({Files[3]}, 1);
  ASSERT_EQ(Lone.size(), 1u);
  EXPECT_EQ(Lone[0].Includes, (List{"<vector>", "<torch/torch.h>"}));
}

} // namespace
} // namespace torch_tidy
