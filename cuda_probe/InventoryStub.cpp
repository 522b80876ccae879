//===--- InventoryStub.cpp - Inventory when nvcc was not found ------------===//

#include "Inventory.h"

namespace torch_tidy::probe {

Inventory takeInventory() {
  Inventory Inv;
  Inv.Error = "CUDA runtime not built in (nvcc was not found at configure "
              "time)";
  return Inv;
}

} // namespace torch_tidy::probe
