//===--- validate_plans.cpp - Runs the runtime's validator on plan files
//---===//
//
// validate_plans FILE...: one line per file, "<file>: valid" or the
// validator's one-line error; exit status 1 when any plan is invalid. Used by
// check_plans.py on the plans torch-tidy emits for each check fixture.
//
//===----------------------------------------------------------------------===//

#include "runtime/Plan.h"

#include <iostream>

int main(int Argc, char **Argv) {
  int Status = 0;
  for (int I = 1; I < Argc; ++I) {
    try {
      torch_tidy::plan::loadPlanFile(Argv[I]);
      std::cout << Argv[I] << ": valid\n";
    } catch (const torch_tidy::plan::PlanError &Error) {
      std::cout << Error.what() << "\n";
      Status = 1;
    }
  }
  return Status;
}
