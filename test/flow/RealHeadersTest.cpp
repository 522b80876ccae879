//===--- RealHeadersTest.cpp - The dataflow on LibTorch's own headers -----===//
//
// The stand-in header has LibTorch's names but not its overload sets,
// templates and holders; one test of each kind on the real headers (through
// the fixtures' precompiled header) checks that the analysis reads them the
// same way.

#include "ParsedCode.h"
#include <gtest/gtest.h>

using namespace clang::tidy::torch_tidy::flow;
using torch_tidy::test::ParsedCode;

namespace {

TEST(RealHeadersTest, MovedModulesHelpersAndContainers) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
struct AttentionImpl : torch::nn::Module {
  AttentionImpl() { qkv = register_module("qkv", torch::nn::Linear(8, 24)); }
  torch::Tensor forward(const torch::Tensor &x) {
    auto scores = torch::matmul(qkv(x), x.transpose(-2, -1));
    auto causal = torch::triu(torch::ones({4, 4}, torch::kBool), 1);
    return scores.masked_fill(causal, -1e9);
  }
  torch::nn::Linear qkv{nullptr};
};
TORCH_MODULE(Attention);

torch::Tensor weighted(const torch::Tensor &loss) {
  auto weights = torch::tensor(std::vector<float>{1.f, 2.f});
  return loss * weights;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Attention attention;
  attention->to(device);
  std::map<std::string, torch::Tensor> heads;
  heads["a"] = torch::rand({2}).to(device);
  auto total = weighted(heads["a"]);
}
)cpp",
                  /*RealHeaders=*/true);
  ASSERT_FALSE(Code.hasErrors());
  const FunctionFacts *Forward =
      Code.analysis().movedClassContext(Code.function("AttentionImpl::forward"));
  ASSERT_NE(Forward, nullptr);
  ASSERT_EQ(Forward->Meetings.size(), 1u);
  EXPECT_EQ(Forward->Meetings[0].cpu().Value.From, Origin::FactoryWithoutDevice);

  Code.root("main");
  bool HelperMeets = false;
  for (const auto &Entry : Code.analysis().contextFacts())
    if (Entry.Facts->Function->getNameAsString() == "weighted")
      HelperMeets |= !Entry.Facts->Meetings.empty();
  EXPECT_TRUE(HelperMeets);
}

} // namespace
