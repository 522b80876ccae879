//===--- TorchApi.h - What LibTorch names mean ----------------------------===//
//
// The one place where torch-tidy's checks learn LibTorch's API: which records
// are tensors, devices and modules, which methods move a tensor between
// devices, which functions load checkpoints. Checks never spell LibTorch names
// themselves.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_TORCHAPI_H
#define TORCH_TIDY_CHECKS_API_TORCHAPI_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::torch_tidy::api {

/// at::Tensor or at::TensorBase (torch::Tensor is an alias of at::Tensor).
inline auto tensorRecord() {
  using namespace ast_matchers;
  return cxxRecordDecl(hasAnyName("::at::Tensor", "::at::TensorBase"));
}

/// A type that is a tensor once sugar (typedefs, `auto`) is removed; cv- and
/// reference-qualified tensors included.
inline auto tensorType() {
  using namespace ast_matchers;
  return qualType(hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(tensorRecord()))));
}

/// Tensor methods that return a tensor on another device or of another type and
/// leave the object itself unchanged: `to`, `cuda`, `cpu`, `toType`, ...
inline auto conversionMethod() {
  using namespace ast_matchers;
  return cxxMethodDecl(
      hasAnyName("to", "cuda", "cpu", "hip", "mps", "xpu", "ipu", "meta",
                 "vulkan", "metal", "toType", "toBackend", "type_as"),
      ofClass(tensorRecord()));
}

/// A call of one of the conversion methods above.
inline auto conversionCall() {
  using namespace ast_matchers;
  return cxxMemberCallExpr(callee(conversionMethod()));
}

/// `x.to(...)` or `x.cuda()` on a tensor: what may copy it to a device.
inline auto toOrCudaCall() {
  using namespace ast_matchers;
  return cxxMemberCallExpr(
      callee(cxxMethodDecl(hasAnyName("to", "cuda"), ofClass(tensorRecord()))));
}

/// Tensor methods that expose its memory to the host as a raw pointer or an
/// accessor: data_ptr, data, mutable_data_ptr, const_data_ptr, accessor.
bool isRawAccess(const CXXMethodDecl *Method);

/// `torch::load(value, source...)`: restores tensors to the device they were
/// saved from unless a device is passed.
inline auto checkpointLoadFunction() {
  using namespace ast_matchers;
  return functionDecl(hasAnyName("::torch::load", "::torch::jit::load",
                                 "::torch::serialize::InputArchive::load_from"));
}

/// `torch::load(value, source..., device)`: what it loads into, and the
/// device argument (null without one: the tensors go back to the device
/// they were saved from).
struct CheckpointLoad {
  const Expr *Into = nullptr;
  const Expr *Device = nullptr;
};
std::optional<CheckpointLoad> checkpointLoad(const CallExpr &Call);

/// Whether \p Decl's qualified name is one of \p Names ("torch::nn::Module").
bool hasQualifiedName(const NamedDecl *Decl,
                      std::initializer_list<llvm::StringRef> Names);
/// Whether \p Record is the class \p Qualified or derives from it.
bool isOrDerivesFrom(const CXXRecordDecl *Record, llvm::StringRef Qualified);

bool isTensorType(QualType Type);
/// A named method of at::Tensor or at::TensorBase (not an operator).
bool isTensorMethod(const CXXMethodDecl *Method);
/// std::vector<at::Tensor>, at::TensorList and similar sequences of tensors.
bool isTensorSequenceType(QualType Type);
/// A container or aggregate that holds tensors: `std::vector<Tensor>`,
/// `TensorList`, `std::map<K, Tensor>`, `std::pair<Tensor, Tensor>`,
/// `std::tuple<...>`, `torch::OrderedDict<K, Tensor>`, a struct with tensor
/// fields, nested. The dataflow gives it the join of its elements.
bool holdsTensors(QualType Type);
/// A tensor, or a type that holds tensors (holdsTensors).
bool isTensorValued(QualType Type);
bool isDeviceType(QualType Type);
/// c10::Device or c10::DeviceType: a variable of either names a device.
bool isDeviceOrDeviceType(QualType Type);
bool isTensorOptionsType(QualType Type);
/// The `c10::Device` and `c10::DeviceType` variables that can be named at
/// \p S: locals declared before it, parameters, fields of the class.
llvm::SmallVector<const ValueDecl *, 2> devicesInScope(const Stmt &S,
                                                       ASTContext &Ctx);
/// A torch::nn::Module subclass.
bool isModuleClass(const CXXRecordDecl *Record);
/// How a module is held: `std::shared_ptr<M>`, `torch::nn::Linear` (a
/// ModuleHolder) or a module object itself. Returns the module class.
const CXXRecordDecl *heldModule(QualType Type);
/// The variable or field of `this` a module is reached through: `model` in
/// `model->to(d)`, `model.to(d)`, `(*model).forward(x)`.
const ValueDecl *moduleReceiver(const Expr *Object);
/// A module member of another module object: `vae->decoder` in
/// `vae->decoder->forward(z)` (not a field of `this`).
struct SubmoduleAccess {
  const ValueDecl *Owner;
  const FieldDecl *Field;
};
std::optional<SubmoduleAccess> submoduleAccess(const Expr *Object);
/// A module built by \p Init (`Net net(...)`, `std::make_shared<Net>()`)
/// from arguments none of which is a device or tensor options: its
/// parameters start on the CPU.
bool isBuiltWithoutDevice(const Expr &Init);
/// `Module::to(...)`: moves registered parameters and buffers in place.
bool isModuleTo(const CXXMemberCallExpr &Call);
/// Whether the LibTorch function \p Fn, called on a module or given one,
/// leaves its parameters where they are: forward(), parameters(), train(),
/// eval(), zero_grad(), torch::save. Not Module::to, nor torch::load (which
/// puts them back on the device they were saved from).
bool leavesModuleInPlace(const FunctionDecl &Fn);

/// How a module class is named in messages: `CrossEntropyLoss` for
/// torch::nn::CrossEntropyLossImpl, the class's name otherwise.
std::string moduleName(const CXXRecordDecl &Module);
/// LibTorch modules whose forward() needs every tensor it is given on its
/// device, not only the input: a recurrent layer's initial state, an
/// attention's masks (LSTM, GRU, RNN and their cells, MultiheadAttention,
/// the Transformer modules).
bool takesStateOnItsDevice(const CXXRecordDecl *Module);
/// A loss module such as torch::nn::CrossEntropyLossImpl.
bool isLossModule(const CXXRecordDecl *Module);
/// torch::data::Example: what a torch::data DataLoader yields (on the CPU).
bool isDataExample(QualType Type);
/// Declared by LibTorch itself (namespaces at, c10, torch, caffe2): never
/// analysed, never reported.
bool isLibTorchInternal(const Decl *D);
/// LibTorch's own declarations and its top-level namespaces themselves: what
/// a traversal of the user's code skips.
bool isLibTorchDecl(const Decl *D);
/// The module class whose instance `Module::to` is called on: `net->to(d)`,
/// `net.to(d)`, `nets[i]->to(d)`; null when only a base class is known.
const CXXRecordDecl *movedModuleClass(const CXXMemberCallExpr &Call);
/// One of LibTorch's namespaces, or a namespace inside one.
bool isLibTorchNamespace(const NamespaceDecl &Namespace);
/// Whether \p S is in LibTorch's own code: a function or declaration of
/// namespaces at, c10, torch, caffe2 (its headers are not system headers when
/// included with -I).
bool isInLibTorch(const Stmt &S, ASTContext &Ctx);

/// What a LibTorch function does with the devices of its tensor operands.
enum class OpKind {
  Other,
  /// Creates a tensor: zeros, ones, rand, tensor, arange, ...
  Factory,
  /// Creates a tensor like its first argument: zeros_like, ...
  FactoryLike,
  /// TensorIterator element-wise op: accepts one 0-dim CPU input beside
  /// accelerator operands (`+ - * /`, comparisons, pow, minimum, ...).
  ElementWise,
  /// Element-wise op that writes into its first operand (`+=`, add_, ...):
  /// the 0-dim exemption covers inputs only, not the output.
  ElementWiseInPlace,
  /// Ops whose device check is generated and allow no CPU operand (mm, cat,
  /// clamp with tensor bounds, lerp, index_select, ...).
  SameDevice,
  /// Loss functions: no CPU operand either; reported as losses/metrics.
  Loss,
};
OpKind classifyFunction(const FunctionDecl *Fn);
/// Whether ops of \p Kind throw when their tensor operands are on different
/// devices (element-wise, same-device and loss ops).
bool checksDevices(OpKind Kind);
/// Whether a loss call asks for no reduction (`torch::Reduction::None`,
/// `.reduction(torch::kNone)`): its result is then not 0-dim.
bool asksNoReduction(const CallExpr &Call);

/// Whether a factory's sizes argument `{}` or scalar argument makes a 0-dim
/// tensor: `torch::zeros({})`, `torch::tensor(0.5)`, `torch::scalar_tensor`.
bool isZeroDimFactoryCall(const CallExpr &Call);

/// The device a DeviceType constant such as `torch::kCUDA` names: true for
/// accelerators, false for kCPU, nothing for other names.
std::optional<bool> isAcceleratorConstant(const NamedDecl *D);
/// The same for a device string literal: "cuda:1" → true, "cpu" → false.
std::optional<bool> isAcceleratorString(llvm::StringRef Text);
/// c10::Device, c10::DeviceType or c10::optional<c10::Device>: an argument of
/// one of these types names the device a checkpoint is loaded to.
bool namesADevice(QualType Type);


/// Calls that parse their first argument as a device string when it is one:
/// the constructors of c10::Device and c10::TensorOptions (whose forwarding
/// constructor builds a Device: `x.to("cuda")`, `torch::zeros({2}, "cuda")`)
/// and TensorOptions::device.
inline auto deviceStringParser() {
  using namespace ast_matchers;
  return functionDecl(anyOf(
      cxxConstructorDecl(
          ofClass(hasAnyName("::c10::Device", "::c10::TensorOptions"))),
      cxxMethodDecl(hasName("device"), ofClass(hasName("::c10::TensorOptions")))));
}

/// Why LibTorch's device-string parser (c10::Device(const std::string &))
/// rejects or misreads a string.
struct DeviceStringProblem {
  /// Why, e.g. "device types are lower-case".
  std::string Reason;
  /// True when c10::Device throws; false when it accepts the string but reads
  /// another device (an index that overflows the 8-bit DeviceIndex).
  bool Throws = true;
  /// The canonical spelling, when the device meant is unambiguous.
  std::optional<std::string> Fix;
};
/// Applies LibTorch's grammar `[a-zA-Z_]+(:(0|[1-9][0-9]*))?` with a type name
/// from c10/core/Device.cpp (1.13, plus names later versions added) and an
/// index that fits c10::DeviceIndex. Nothing when the string is valid.
std::optional<DeviceStringProblem> checkDeviceString(llvm::StringRef Text);
/// The index a valid device string names: "cuda:1" -> 1, "cuda" -> nothing.
std::optional<unsigned> deviceStringIndex(llvm::StringRef Text);
/// Whether a valid device string names a CUDA device: "cuda", "cuda:1".
bool isCudaString(llvm::StringRef Text);

/// torch::kCUDA, c10::DeviceType::CUDA: the DeviceType constants of CUDA.
inline auto cudaConstant() {
  using namespace ast_matchers;
  return valueDecl(hasAnyName("::c10::kCUDA", "::c10::DeviceType::CUDA"));
}
/// `x.cuda()`: a copy of the tensor on the current CUDA device (in 1.13 it
/// takes no device index).
inline auto cudaConversionCall() {
  using namespace ast_matchers;
  return cxxMemberCallExpr(
      callee(cxxMethodDecl(hasName("cuda"), ofClass(tensorRecord()))));
}
/// Builders that take a device index: `c10::Device(type, index)`,
/// `TensorOptions::device(type, index)`, `torch::device_index(index)`.
inline auto deviceIndexBuilder() {
  using namespace ast_matchers;
  return functionDecl(anyOf(
      cxxConstructorDecl(ofClass(hasName("::c10::Device")), parameterCountIs(2)),
      hasAnyName("::c10::TensorOptions::device",
                 "::c10::TensorOptions::device_index", "::c10::device_index")));
}
/// Functions that tell whether a CUDA device exists:
/// torch::cuda::is_available(), torch::cuda::device_count(), at::hasCUDA().
inline auto cudaAvailabilityFunction() {
  using namespace ast_matchers;
  return functionDecl(hasAnyName(
      "::torch::cuda::is_available", "::torch::cuda::device_count",
      "::torch::cuda::cudnn_is_available", "::at::hasCUDA",
      "::at::Context::hasCUDA", "::at::cuda::is_available",
      "::at::cuda::device_count", "::c10::cuda::device_count"));
}
/// Whether \p S names an accelerator by itself: `torch::kCUDA`, a string
/// such as "cuda:0", `.cuda()`, or a call of torch::cuda::is_available().
bool mentionsAccelerator(const Stmt &S);
/// The explicit device index of a device built from a type and an index:
/// `c10::Device(type, index)`, `TensorOptions::device(type, index)`,
/// `torch::device_index(index)` (CUDA); null when none is written.
const Expr *explicitDeviceIndex(const Expr &E);
/// The device type argument next to that index (null for device_index(),
/// which always means CUDA).
const Expr *explicitDeviceType(const Expr &E);
/// A LibTorch function or constructor that only builds a device or tensor
/// options from its arguments (Device, TensorOptions, optional<Device>,
/// torch::device, TensorOptions::device/dtype/...): a device passed to it
/// travels on to whatever uses the result.
bool isDeviceBuilder(const FunctionDecl *Fn);
/// A LibTorch operation that puts tensors on the device it is given: Tensor
/// methods (`to`, `new_zeros`, ...), Module::to, factories and other free
/// functions returning a tensor, checkpoint loads.
bool isDeviceTakingOperation(const FunctionDecl *Fn);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_TORCHAPI_H
