//===--- EvaluatorTest.cpp - The device of expressions --------------------===//

#include "ParsedCode.h"
#include <gtest/gtest.h>

using namespace clang::tidy::torch_tidy::flow;
using torch_tidy::test::ParsedCode;

namespace {

const char *const Values = R"cpp(
#include <torch/torch.h>
struct Batch {
  torch::Tensor x, y;
};

void factories(torch::Device device, const torch::Tensor &other) {
  auto plain = torch::zeros({2});
  auto scalar = torch::zeros({});
  auto placed = torch::zeros({2}, torch::device(device));
  auto like = torch::ones({2}, other.options());
  auto moved = plain.to(device);
  auto halved = plain.to(torch::kHalf);
  auto back = moved.cpu();
  auto sum = plain.sum();
  torch::Tensor use = plain + scalar + placed + like + moved + halved + back + sum;
}

void containers(torch::Device device, bool b) {
  std::vector<torch::Tensor> cpu;
  cpu.push_back(torch::zeros({2}));
  cpu.push_back(torch::ones({2}));
  std::vector<torch::Tensor> mixed;
  mixed.push_back(torch::zeros({2}));
  mixed.push_back(torch::ones({2}).to(device));
  std::map<std::string, torch::Tensor> named;
  named.emplace("a", torch::zeros({1}));
  auto it = named.find("a");
  Batch batch;
  batch.x = torch::zeros({2});
  batch.y = torch::zeros({2}).to(device);
  torch::Tensor use = cpu[0] + mixed[0] + it->second + batch.x + batch.y;
}

void aliases(torch::Device device) {
  std::vector<torch::Tensor> all = {torch::zeros({2}), torch::ones({2})};
  for (auto &t : all)
    t = t.to(device);
  std::vector<torch::Tensor> copies = {torch::zeros({2})};
  for (torch::Tensor t : copies)
    t = t.to(device);
  torch::Tensor use = all[0] + copies[0];
}
)cpp";

class EvaluatorTest : public ::testing::Test {
protected:
  EvaluatorTest() : Code(Values) {}
  TensorValue valueOf(const std::string &Function, const std::string &Var) {
    return Code.root(Function).deviceOf(Code.lastUse(Function, Var));
  }
  ParsedCode Code;
};

TEST_F(EvaluatorTest, AFactoryWithoutADeviceIsOnTheCpu) {
  ASSERT_FALSE(Code.hasErrors());
  TensorValue Plain = valueOf("factories", "plain");
  EXPECT_EQ(Plain.Device, Place::Cpu);
  EXPECT_EQ(Plain.From, Origin::FactoryWithoutDevice);
  EXPECT_FALSE(Plain.ZeroDim);
  EXPECT_TRUE(valueOf("factories", "scalar").ZeroDim);
  EXPECT_TRUE(valueOf("factories", "sum").ZeroDim);
}

TEST_F(EvaluatorTest, ADeviceParameterMayBeAnAccelerator) {
  TensorValue Placed = valueOf("factories", "placed");
  EXPECT_EQ(Placed.Device, Place::Accelerator);
  EXPECT_TRUE(Placed.MaybeAccelerator);
  TensorValue Moved = valueOf("factories", "moved");
  EXPECT_EQ(Moved.Device, Place::Accelerator);
  EXPECT_EQ(Moved.From, Origin::Moved);
  EXPECT_EQ(valueOf("factories", "back").Device, Place::Cpu);
}

TEST_F(EvaluatorTest, ATensorsOptionsCarryItsDevice) {
  // `other` is a parameter: unknown on its own, so is what follows it.
  EXPECT_TRUE(valueOf("factories", "like").isUnknown());
}

TEST_F(EvaluatorTest, ADtypeChangeKeepsTheDeviceAndItsCause) {
  TensorValue Halved = valueOf("factories", "halved");
  EXPECT_EQ(Halved.Device, Place::Cpu);
  EXPECT_EQ(Halved.From, Origin::FactoryWithoutDevice);
}

TEST_F(EvaluatorTest, AContainerHoldsTheJoinOfItsElements) {
  EXPECT_EQ(valueOf("containers", "cpu").Device, Place::Cpu);
  EXPECT_TRUE(valueOf("containers", "mixed").isUnknown());
  EXPECT_EQ(valueOf("containers", "it").Device, Place::Cpu);
}

TEST_F(EvaluatorTest, AnAggregateKeepsEachField) {
  const FunctionFacts &Facts = Code.root("containers");
  auto Fields = clang::ast_matchers::match(
      clang::ast_matchers::findAll(
          clang::ast_matchers::memberExpr(
              clang::ast_matchers::member(clang::ast_matchers::hasAnyName("x", "y")))
              .bind("field")),
      *Code.function("containers").getBody(), Code.context());
  ASSERT_EQ(Fields.size(), 4u);
  // The last two are the reads in `use`.
  EXPECT_EQ(Facts.deviceOf(*Fields[2].getNodeAs<clang::Expr>("field")).Device,
            Place::Cpu);
  EXPECT_EQ(Facts.deviceOf(*Fields[3].getNodeAs<clang::Expr>("field")).Device,
            Place::Accelerator);
}

TEST_F(EvaluatorTest, AWriteThroughAReferenceChangesTheContainer) {
  // One element moved, maybe all: no longer known to be on the CPU.
  EXPECT_TRUE(valueOf("aliases", "all").isUnknown());
  // A copy of an element changes nothing.
  EXPECT_EQ(valueOf("aliases", "copies").Device, Place::Cpu);
}

} // namespace
