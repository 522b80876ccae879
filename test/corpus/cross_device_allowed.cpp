// Operations that legitimately mix devices, next to two that do not.
#include <torch/torch.h>

#include <iostream>

torch::Tensor gather_rows(const torch::Tensor& table, const torch::Tensor& cpu_idx) {
  return table.index({cpu_idx});  // CPU indices into a device tensor are moved by indexing: fine
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto table = torch::randn({100, 8}, torch::TensorOptions().device(device));
  auto idx = torch::randint(0, 100, {16}, torch::kLong);

  auto rows = gather_rows(table, idx);
  auto rows2 = table.index({idx, torch::indexing::Slice()});
  auto picked = table.index({torch::tensor({0, 5, 7})});

  auto host = torch::empty({16, 8});
  host.copy_(rows);  // copy_ across devices: fine
  rows.copy_(host);
  table.index_put_({idx}, torch::zeros({16, 8}));  // indexed assignment from the CPU: fine
  table.index({torch::indexing::Slice(0, 16)}) = host;

  auto scaled = rows * 0.5 + 1.0;                     // C++ scalars: fine
  auto shifted = rows - torch::tensor(3.0);           // one 0-dim CPU tensor: fine
  auto clipped = torch::maximum(rows, torch::zeros({}));  // 0-dim CPU input of a binary op: fine
  auto count = (rows > 0).sum().item<int64_t>();      // item() syncs: fine

  auto stats = rows.mean(0).cpu();
  auto normalized = (rows - rows.mean(0)) / rows.std(0);
  auto centered = rows - stats;  // BUG(device-mismatch): stats is a 1-dim CPU copy, rows is on the device
  auto before = rows2.detach().cpu().clone();  // snapshot for a sanity check
  rows2.mul_(2);
  auto diff = (rows2 - before * 2).abs().max();  // BUG(device-mismatch): `before` is the CPU snapshot, rows2 is on the device
  std::cout << picked.sizes() << scaled.sizes() << shifted.sizes() << clipped.sizes() << count
            << normalized.sizes() << centered.sizes() << diff.item<float>() << '\n';
}
