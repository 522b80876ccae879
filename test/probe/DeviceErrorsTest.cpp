//===--- DeviceErrorsTest.cpp - LibTorch's device-mismatch wordings -------===//

#include "runtime/DeviceErrors.h"

#include <gtest/gtest.h>

using namespace torch_tidy::runtime;

namespace {

TEST(DeviceErrors, RecognisesEveryKnownWording) {
  for (const char *Message : {
           "Expected all tensors to be on the same device, but found at least "
           "two devices, cuda:0 and cpu!",
           "Expected all tensors to be on the same device, but found at least "
           "two devices, meta and cpu!",
           "expected device cuda:0 but got device cpu (while checking "
           "arguments: all tensors must be on a common device)",
           "Expected all tensors to be on the same device, but got mat1 is on "
           "cpu, different from other tensors on cuda:0 (when checking "
           "argument in method wrapper_CUDA_addmm)",
           "Input type (CPUFloatType) and weight type (CUDAFloatType) should "
           "be the same",
           "Input type (torch.cuda.FloatTensor) and weight type "
           "(torch.FloatTensor) should be the same or input should be a "
           "MKLDNN tensor and weight is a dense tensor",
           "Trying to pass too many CPU scalars to non-CPU kernel!",
           "indices should be either on cpu or on the same device as the "
           "indexed tensor (cpu)"})
    EXPECT_TRUE(isDeviceMismatchMessage(Message)) << Message;
}

TEST(DeviceErrors, IgnoresOtherErrors) {
  for (const char *Message : {
           "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x3)",
           "Input type (CUDAFloatType) and weight type (CUDAHalfType) should "
           "be the same",
           "Cannot copy out of meta tensor; no data!",
           "can't optimize a non-leaf Tensor"})
    EXPECT_FALSE(isDeviceMismatchMessage(Message)) << Message;
}

TEST(DeviceErrors, NonLeafOptimizer) {
  EXPECT_TRUE(isNonLeafOptimizerMessage("can't optimize a non-leaf Tensor"));
  EXPECT_FALSE(isNonLeafOptimizerMessage("Expected all tensors to be on the "
                                         "same device"));
}

TEST(DeviceErrors, FirstLine) {
  EXPECT_EQ(firstLine("one\ntwo\n"), "one");
  EXPECT_EQ(firstLine("only"), "only");
}

} // namespace
