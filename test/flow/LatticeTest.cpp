//===--- LatticeTest.cpp - The lattice and the state of the dataflow ------===//

#include "flow/Lattice.h"
#include "flow/State.h"
#include "clang/AST/Decl.h"
#include <gtest/gtest.h>

using namespace clang::tidy::torch_tidy::flow;

namespace {

TensorValue onCpu(Origin From, const clang::Expr *Source) {
  TensorValue Value = TensorValue::cpu();
  Value.From = From;
  Value.Source = Source;
  return Value;
}

TensorValue maybeOnAccelerator() {
  TensorValue Value;
  Value.Device = Place::Accelerator;
  Value.MaybeAccelerator = true;
  return Value;
}

// Distinct addresses stand for distinct expressions: provenance is compared
// by identity only.
const auto *const First = reinterpret_cast<const clang::Expr *>(0x10);
const auto *const Second = reinterpret_cast<const clang::Expr *>(0x20);

TEST(LatticeTest, DisagreeingDevicesJoinToUnknown) {
  EXPECT_TRUE(join(TensorValue::cpu(), maybeOnAccelerator()).isUnknown());
  EXPECT_TRUE(join(maybeOnAccelerator(), TensorValue::unknown()).isUnknown());
}

TEST(LatticeTest, UnknownIsTopAndAnEmptySequenceBottom) {
  TensorValue Cpu = TensorValue::cpu();
  EXPECT_EQ(join(TensorValue::emptySequence(), Cpu), Cpu);
  EXPECT_EQ(join(Cpu, TensorValue::emptySequence()), Cpu);
  EXPECT_TRUE(join(TensorValue::unknown(), Cpu).isUnknown());
}

TEST(LatticeTest, ProvenanceIsNotPartOfTheLattice) {
  TensorValue A = onCpu(Origin::FactoryWithoutDevice, First);
  TensorValue B = onCpu(Origin::DataBatch, Second);
  EXPECT_EQ(A, B);
  // The join keeps the cause both agree on, from its first operand.
  TensorValue Same = join(A, onCpu(Origin::FactoryWithoutDevice, Second));
  EXPECT_EQ(Same.From, Origin::FactoryWithoutDevice);
  EXPECT_EQ(Same.Source, First);
  // Two causes: neither explains the value alone.
  TensorValue Mixed = join(A, B);
  EXPECT_EQ(Mixed.Device, Place::Cpu);
  EXPECT_EQ(Mixed.From, Origin::None);
  EXPECT_EQ(Mixed.Source, nullptr);
}

TEST(LatticeTest, JoinWeakensFlags) {
  TensorValue Scalar = TensorValue::cpu();
  Scalar.ZeroDim = true;
  Scalar.RequiresGradLeaf = true;
  TensorValue Joined = join(Scalar, TensorValue::cpu());
  EXPECT_FALSE(Joined.ZeroDim);
  EXPECT_FALSE(Joined.RequiresGradLeaf);
  TensorValue Surely = maybeOnAccelerator();
  Surely.MaybeAccelerator = false;
  EXPECT_TRUE(join(Surely, maybeOnAccelerator()).MaybeAccelerator);
}

TEST(LatticeTest, ModulesThatDisagreeAreUnknown) {
  ModuleValue Moved{Place::Accelerator, {Place::Accelerator, nullptr, true}, First};
  ModuleValue Again{Place::Accelerator, {Place::Accelerator, nullptr, true}, Second};
  EXPECT_EQ(join(Moved, Again), Moved);
  EXPECT_EQ(join(Moved, ModuleValue()).Device, Place::Unknown);
}

TEST(StateTest, APlaceKnownOnOneSideOnlyIsUnknown) {
  clang::ValueDecl *const X = reinterpret_cast<clang::ValueDecl *>(0x100);
  clang::ValueDecl *const Y = reinterpret_cast<clang::ValueDecl *>(0x200);
  State A, B;
  A.Tensors[Location(X)] = TensorValue::cpu();
  A.Tensors[Location(Y)] = TensorValue::cpu();
  B.Tensors[Location(X)] = TensorValue::cpu();
  State Joined = join(A, B);
  EXPECT_EQ(Joined.tensor(Location(X)).Device, Place::Cpu);
  EXPECT_TRUE(Joined.tensor(Location(Y)).isUnknown());
  EXPECT_EQ(Joined.Tensors.count(Location(Y)), 0u);
}

TEST(StateTest, ContextKeysIgnoreWhereAValueCameFrom) {
  clang::ValueDecl *const X = reinterpret_cast<clang::ValueDecl *>(0x100);
  State A, B;
  A.Tensors[Location(X)] = onCpu(Origin::FactoryWithoutDevice, First);
  B.Tensors[Location(X)] = onCpu(Origin::FactoryWithoutDevice, Second);
  EXPECT_EQ(contextKey(A), contextKey(B));
  // The kind of cause decides which rule reports a finding: it counts.
  B.Tensors[Location(X)] = onCpu(Origin::DataBatch, Second);
  EXPECT_NE(contextKey(A), contextKey(B));
  B.Tensors[Location(X)] = maybeOnAccelerator();
  EXPECT_NE(contextKey(A), contextKey(B));
}

TEST(StateTest, ForgettingAnAggregateForgetsItsFields) {
  clang::ValueDecl *const Batch = reinterpret_cast<clang::ValueDecl *>(0x100);
  clang::ValueDecl *const Field = reinterpret_cast<clang::ValueDecl *>(0x300);
  State S;
  S.Tensors[Location(Batch)] = TensorValue::emptySequence();
  S.Tensors[Location(Batch, Field)] = TensorValue::cpu();
  S.forgetMembers(Batch);
  EXPECT_EQ(S.Tensors.count(Location(Batch, Field)), 0u);
  EXPECT_EQ(S.Tensors.count(Location(Batch)), 1u);
}

} // namespace
