//===--- CrossFileRecorder.h - Facts that cross translation units ---------===//
//
// A finding may depend on a fact that only another translation unit shows:
// a helper defined here is called elsewhere with a tensor on a GPU, or a
// module whose forward() is defined here is moved to a GPU elsewhere. The
// dataflow records such a finding as conditional on that fact (a Need), and
// records the facts this translation unit supplies to others; the driver
// matches them once every file of the run is analysed, without parsing any
// file twice. With no recorder installed (stock clang-tidy loading the
// plugin, one file at a time) neither is recorded.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_CROSSFILERECORDER_H
#define TORCH_TIDY_CHECKS_FLOW_CROSSFILERECORDER_H

#include "utils/RecordedPlace.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <tuple>

namespace clang::tidy::torch_tidy::flow {

/// A fact one translation unit may supply to another.
struct Need {
  enum Kind {
    CalledWithAccelerator,
    ModuleMoved,
    RegistersSubmodule,
    /// Some translation unit of the program names an accelerator: a file
    /// that does not (it gets the device from elsewhere) has findings only
    /// then.
    ProgramNamesAccelerator,
    /// The function is called with a module (parameter Param) moved to a
    /// device that may be an accelerator: `evaluate(model, loader)` after
    /// `model->to(device)`.
    CalledWithMovedModule,
    /// The function is called with a module (parameter Param) built on the
    /// CPU, never moved before the call and given to nothing else.
    CalledWithCpuModule,
    /// The function Entity, defined in another translation unit, returns its
    /// tensors on the CPU (Part empty), or the field Part of the aggregate it
    /// returns.
    ReturnsCpu
  };
  Kind What = CalledWithAccelerator;
  /// The function (its mangled name) or module class (its type) concerned.
  std::string Entity;
  /// CalledWith...: the parameter. RegistersSubmodule: unused.
  unsigned Param = 0;
  /// RegistersSubmodule: the submodule's class, moved with Entity.
  std::string Submodule;
  /// ReturnsCpu: the field of the returned aggregate, empty for the whole.
  std::string Part;

  bool operator<(const Need &O) const {
    return std::tie(What, Entity, Param, Submodule, Part) <
           std::tie(O.What, O.Entity, O.Param, O.Submodule, O.Part);
  }
  bool operator==(const Need &O) const {
    return std::tie(What, Entity, Param, Submodule, Part) ==
           std::tie(O.What, O.Entity, O.Param, O.Submodule, O.Part);
  }
};

class CrossFileRecorder {
public:
  virtual ~CrossFileRecorder();
  /// The finding \p Check reports at \p At holds only if \p Condition is
  /// supplied by another translation unit.
  virtual void conditional(llvm::StringRef Check, utils::RecordedPlace At,
                           Need Condition) = 0;
  /// This translation unit supplies \p Fact at \p At; \p Note says so in
  /// the words of a note (`'loss' is called here with 'out' on 'device'`).
  /// With \p Condition, only if another translation unit supplies that (a
  /// helper passes its parameter on: one link of a chain across files).
  virtual void supply(Need Fact, utils::RecordedPlace At, std::string Note,
                      std::optional<Need> Condition) = 0;
};

/// Installs \p Recorder for the translation units analysed on the calling
/// thread; null installs none. Returns the one it replaces.
CrossFileRecorder *setCrossFileRecorder(CrossFileRecorder *Recorder);
/// The recorder installed on the calling thread, if any.
CrossFileRecorder *crossFileRecorder();

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_CROSSFILERECORDER_H
