//===--- InterproceduralTest.cpp - Facts across functions and methods -----===//

#include "ParsedCode.h"
#include <gtest/gtest.h>

using namespace clang::tidy::torch_tidy::flow;
using torch_tidy::test::ParsedCode;

namespace {

/// The meetings recorded by the analyses of \p Function in a context.
std::vector<const Meeting *> contextMeetings(ParsedCode &Code,
                                             const std::string &Function) {
  std::vector<const Meeting *> Out;
  for (const auto &Entry : Code.analysis().contextFacts())
    if (Entry.Facts->Function->getNameAsString() == Function)
      for (const Meeting &M : Entry.Facts->Meetings)
        Out.push_back(&M);
  return Out;
}

TEST(InterproceduralTest, AHelperSeesTheDeviceItsCallerPasses) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
torch::Tensor masked(const torch::Tensor &sim) {
  auto mask = torch::eye(3);
  return sim + mask;
}
torch::Tensor follows(const torch::Tensor &sim) {
  return sim + torch::zeros({3}, sim.options());
}
void train(torch::Device device, const torch::Tensor &x) {
  auto sim = x.to(device);
  auto a = masked(sim);
  auto b = follows(sim);
  auto c = masked(torch::ones({3}));
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  Code.root("train");
  // Alone, the helper knows nothing of `sim`.
  EXPECT_TRUE(Code.root("masked").Meetings.empty());
  // Called with a tensor on the device: the CPU mask meets it.
  auto Found = contextMeetings(Code, "masked");
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0]->cpu().Value.From, Origin::FactoryWithoutDevice);
  EXPECT_EQ(Found[0]->accelerator().Value.Device, Place::Accelerator);
  // Options of the argument: on its device, no meeting.
  EXPECT_TRUE(contextMeetings(Code, "follows").empty());
}

TEST(InterproceduralTest, FieldsSetInTheConstructorReachOtherMethods) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
class Meter {
public:
  Meter() : total_(torch::zeros({1})) {}
  void add(const torch::Tensor &value) { total_ += value; }
private:
  torch::Tensor total_;
};
void evaluate(torch::Device device, Meter &meter, const torch::Tensor &x) {
  meter.add(x.to(device));
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  Code.root("evaluate");
  auto Found = contextMeetings(Code, "add");
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0]->cpu().Value.From, Origin::FactoryWithoutDevice);
}

TEST(InterproceduralTest, AMovedModulesForwardSeesItsInputsOnTheDevice) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", std::make_shared<torch::nn::LinearImpl>(3, 3)); }
  torch::Tensor forward(const torch::Tensor &x) {
    auto bias = torch::ones({3});
    return fc->forward(x) + bias;
  }
  torch::nn::Linear fc;
};
struct IdleImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) { return x + torch::ones({3}); }
};
int main() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto net = std::make_shared<NetImpl>();
  net->to(device);
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  const FunctionFacts *Moved =
      Code.analysis().movedClassContext(Code.function("NetImpl::forward"));
  ASSERT_NE(Moved, nullptr);
  ASSERT_EQ(Moved->Meetings.size(), 1u);
  EXPECT_EQ(Moved->Meetings[0].cpu().Value.From, Origin::FactoryWithoutDevice);
  // A module class no one moves has no such context.
  EXPECT_EQ(Code.analysis().movedClassContext(Code.function("IdleImpl::forward")),
            nullptr);
}

TEST(InterproceduralTest, AMoveInACalleeMovesTheCallersModule) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
void place(torch::nn::Linear layer, torch::Device device) { layer->to(device); }
void run(torch::Device device) {
  auto layer = std::make_shared<torch::nn::LinearImpl>(3, 3);
  place(layer, device);
  auto y = layer->forward(torch::zeros({2, 3}));
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  const FunctionFacts &Run = Code.root("run");
  ASSERT_EQ(Run.ForwardInputs.size(), 1u);
  EXPECT_EQ(Run.ForwardInputs[0].Input.Value.Device, Place::Cpu);
}

TEST(InterproceduralTest, AReturnedAggregateKeepsItsFields) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
struct Sampled { torch::Tensor states, actions; };
Sampled sample(torch::Device device) {
  Sampled s;
  s.states = torch::randn({4, 3}).to(device);
  s.actions = torch::zeros({4});
  return s;
}
void learn(torch::Device device) {
  auto b = sample(device);
  auto q = b.states.mm(b.actions);
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  const FunctionFacts &Learn = Code.root("learn");
  ASSERT_EQ(Learn.Meetings.size(), 1u);
  EXPECT_EQ(Learn.Meetings[0].cpu().Value.From, Origin::FactoryWithoutDevice);
}

TEST(InterproceduralTest, RecursionAndVirtualCallsAreNotFollowed) {
  ParsedCode Code(R"cpp(
#include <torch/torch.h>
torch::Tensor again(const torch::Tensor &x, int n) {
  return n ? again(x, n - 1) : x + torch::ones({3});
}
struct Base {
  virtual torch::Tensor apply(const torch::Tensor &x) { return x + torch::ones({3}); }
};
void run(torch::Device device, Base &b, const torch::Tensor &x) {
  auto y = again(x.to(device), 2);
  auto z = b.apply(x.to(device));
}
)cpp");
  ASSERT_FALSE(Code.hasErrors());
  Code.root("run");
  EXPECT_EQ(Code.analysis().followedDefinition(&Code.function("again")), nullptr);
  EXPECT_EQ(Code.analysis().followedDefinition(&Code.function("Base::apply")),
            nullptr);
  EXPECT_TRUE(contextMeetings(Code, "again").empty());
  EXPECT_TRUE(contextMeetings(Code, "apply").empty());
}

} // namespace
