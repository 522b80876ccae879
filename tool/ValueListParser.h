//===--- ValueListParser.h - The values of an option, named -----*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_VALUELISTPARSER_H
#define TORCH_TIDY_TOOL_VALUELISTPARSER_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

/// The parser of an option with a list of values (cl::values), which refuses
/// another value with one line that names the valid ones, "torch-tidy:
/// error: unknown --format 'xml'; valid values: text, json, sarif", where
/// LLVM's says "Cannot find option named 'xml'!".
template <typename T> class ValueListParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;

  bool parse(llvm::cl::Option &O, llvm::StringRef ArgName, llvm::StringRef Arg,
             T &Value) {
    auto Named = [&](const auto &Info) { return Info.Name == Arg; };
    if (llvm::any_of(this->Values, Named))
      return llvm::cl::parser<T>::parse(O, ArgName, Arg, Value);
    llvm::errs() << "torch-tidy: error: unknown --" << ArgName << " '" << Arg
                 << "'; valid values: ";
    llvm::interleaveComma(this->Values, llvm::errs(),
                          [](const auto &Info) { llvm::errs() << Info.Name; });
    llvm::errs() << "\n";
    return true;
  }
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_VALUELISTPARSER_H
