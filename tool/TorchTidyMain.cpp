//===--- TorchTidyMain.cpp - The torch-tidy executable --------------------===//

#include "Driver.h"

int main(int Argc, const char **Argv) {
  return torch_tidy::runDriver(Argc, Argv);
}
