// FIXTURE-HEADERS: standin
#include <torch/torch.h>

// A process group says one process per GPU; the current device is set from
// the rank, so devices without an index are each process's own GPU. A device
// with an index written in is still the same GPU everywhere.
namespace c10d {
class ProcessGroup {
public:
  int getRank() const;
  int getSize() const;
};
} // namespace c10d

void run(const c10d::ProcessGroup &group, int local_rank) {
  c10::cuda::set_device(static_cast<c10::DeviceIndex>(local_rank));
  torch::Device device(torch::kCUDA);
  auto x = torch::zeros({2}, torch::kCUDA).cuda();
  auto y = x.to(torch::Device("cuda:0"));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'torch::Device("cuda:0")' is GPU 0 in every process: this program runs one process per GPU (it uses a c10d process group) but chooses this device without the rank, so every process works on the same GPU; use 'torch::Device(torch::kCUDA, local_rank)' [device-rank-unaware]
  (void)group.getRank(), (void)y;
}
