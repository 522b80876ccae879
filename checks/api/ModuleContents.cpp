//===--- ModuleContents.cpp - What a LibTorch module class holds ----------===//

#include "ModuleContents.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::torch_tidy::api {

/// torch::nn::<Name>Impl classes whose reset() registers nothing and that have
/// no tensor or module fields (LibTorch 1.13's activation.h, pooling.h,
/// padding.h, linear.h, upsampling.h, pixelshuffle.h, fold.h, distance.h,
/// normalization.h). FractionalMaxPool registers a buffer; PReLU a weight.
static const llvm::StringSet<> &parameterFree() {
  static const llvm::StringSet<> Names = {
      // activation.h
      "ELU", "SELU", "Hardshrink", "Hardtanh", "LeakyReLU", "LogSigmoid",
      "Softmax", "Softmin", "LogSoftmax", "Softmax2d", "ReLU", "ReLU6", "CELU",
      "GLU", "GELU", "SiLU", "Mish", "Sigmoid", "Softplus", "Softshrink",
      "Softsign", "Tanh", "Tanhshrink", "Threshold",
      // pooling.h
      "AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d", "MaxPool2d",
      "MaxPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
      "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
      "AdaptiveMaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
      "LPPool1d", "LPPool2d",
      // padding.h
      "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
      "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad2d",
      "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
      // linear.h, upsampling.h, pixelshuffle.h, fold.h, distance.h
      "Identity", "Flatten", "Unflatten", "Upsample", "PixelShuffle",
      "PixelUnshuffle", "Fold", "Unfold", "CosineSimilarity",
      "PairwiseDistance",
      // normalization.h
      "LocalResponseNorm", "CrossMapLRN2d"};
  return Names;
}

/// Parameter-free too, but forward() reads is_training() (dropout.h, and
/// RReLU in activation.h).
static const llvm::StringSet<> &trainingModeOnly() {
  static const llvm::StringSet<> Names = {"Dropout", "Dropout2d", "Dropout3d",
                                          "AlphaDropout", "FeatureAlphaDropout",
                                          "RReLU"};
  return Names;
}

/// `torch::nn::`, directly (LibTorch's modules are declared there).
static bool isInTorchNn(const CXXRecordDecl &Record) {
  const auto *Nn = dyn_cast<NamespaceDecl>(Record.getDeclContext());
  const auto *Torch =
      Nn ? dyn_cast<NamespaceDecl>(Nn->getDeclContext()) : nullptr;
  return Torch && Nn->getName() == "nn" && Torch->getName() == "torch" &&
         Torch->getDeclContext()->isTranslationUnit();
}

ModuleContents contentsOf(const CXXRecordDecl *Module) {
  if (!Module || !Module->getDeclName().isIdentifier() || !isInTorchNn(*Module))
    return ModuleContents::State;
  llvm::StringRef Name = Module->getName();
  if (!Name.consume_back("Impl"))
    return ModuleContents::State;
  if (parameterFree().contains(Name))
    return ModuleContents::Nothing;
  if (trainingModeOnly().contains(Name))
    return ModuleContents::TrainingModeOnly;
  return ModuleContents::State;
}

} // namespace clang::tidy::torch_tidy::api
