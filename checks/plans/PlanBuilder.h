//===--- PlanBuilder.h - Builds the replay plan of a finding ----*- C++ -*-===//
//
// Each finding carries a small straight-line program over tensors that the
// probe (torch-tidy-probe) replays to confirm it; runtime/PLAN_FORMAT.md is
// the format. Checks build the steps and the observable here and record the
// plan (PlanRecorder.h); the driver names it after its finding.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_PLANS_PLANBUILDER_H
#define TORCH_TIDY_CHECKS_PLANS_PLANBUILDER_H

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clang::tidy::torch_tidy::plans {

/// A tensor a plan creates with a factory.
struct TensorSpec {
  std::string Device = "cpu"; ///< "cpu" or "accel".
  std::vector<int64_t> Sizes = {4};
  std::string Dtype = "float32";
  /// The factory: "randn", "rand" (values in [0, 1)), "zeros", "ones".
  std::string Fill = "randn";
  bool RequiresGrad = false;
};

/// Builds the steps of a plan; each method returns the id of its result.
class PlanBuilder {
public:
  std::string factory(const TensorSpec &Tensor);
  /// `Self.<Fn>()`, or `Self.to(Device)` for "to"; discarded when \p Keep is
  /// false.
  std::string move(const std::string &Self, llvm::StringRef Fn,
                   llvm::StringRef Device, bool Keep, unsigned Repeat = 1);
  /// A call function of the plan format; \p Args are value names or numbers.
  std::string call(llvm::StringRef Fn, nlohmann::json Args);
  std::string linear(int64_t In, int64_t Out);
  std::string conv2d(int64_t InChannels, int64_t OutChannels);
  void moduleTo(const std::string &Module, llvm::StringRef Device);
  std::string forward(const std::string &Module, const std::string &Input);
  std::string sgd(const std::vector<std::string> &Params);
  void dataPtr(const std::string &Self);
  /// A host-device synchronisation: `sync` of \p Fn ("item", "print",
  /// "nonzero" on \p Self; "synchronize" with no tensor).
  void sync(llvm::StringRef Fn, const std::string &Self);
  std::string module(const nlohmann::json &Parameters,
                     const nlohmann::json &Unregistered);

  /// The index of the step added last.
  unsigned lastStep() const { return Steps.size() - 1; }
  void expect(nlohmann::json Observable) { Expect = std::move(Observable); }
  nlohmann::json finish(llvm::StringRef Check,
                        llvm::StringRef Description) const;

private:
  std::string add(nlohmann::json Step, bool Named = true);
  nlohmann::json Steps = nlohmann::json::array();
  nlohmann::json Expect;
  unsigned Counter = 0;
};

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_PLANBUILDER_H
