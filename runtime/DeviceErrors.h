//===--- DeviceErrors.h - Recognising LibTorch's device errors --*- C++ -*-===//

#ifndef TORCH_TIDY_RUNTIME_DEVICEERRORS_H
#define TORCH_TIDY_RUNTIME_DEVICEERRORS_H

#include <string>

namespace torch_tidy::runtime {

/// True when \p Message is one of the wordings LibTorch has used, across
/// versions and ops, for operands on different devices.
bool isDeviceMismatchMessage(const std::string &Message);

/// True when \p Message is the optimizer's refusal of a non-leaf tensor.
bool isNonLeafOptimizerMessage(const std::string &Message);

/// The first line of \p Message (LibTorch appends backtraces and notes).
std::string firstLine(const std::string &Message);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_DEVICEERRORS_H
