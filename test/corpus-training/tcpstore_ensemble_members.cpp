// Deep-ensemble training: N independent processes (one per GPU) rendezvous on a
// TCPStore, which hands each of them a member id; each trains one ensemble member
// with its own seed and bootstrap sample and saves it.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

struct MemberNetImpl : torch::nn::Module {
  MemberNetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(16, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 2));  // mean and log-variance
  }
  torch::Tensor forward(const torch::Tensor& x) { return fc2->forward(torch::softplus(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(MemberNet);

class EnsembleMember {
 public:
  explicit EnsembleMember(int member)
      : member_(member),
        device_(torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU)) {  // BUG(device-rank-unaware): the member id from the store is one process per GPU, but the device ignores it: every member trains on GPU 0
    torch::manual_seed(1000 + member_);
    net_->to(device_);
  }

  void train(const torch::Tensor& x_all, const torch::Tensor& y_all, int steps) {
    torch::optim::Adam opt(net_->parameters(), torch::optim::AdamOptions(1e-3));
    auto x = x_all.to(device_), y = y_all.to(device_);
    auto boot = torch::randint(0, x.size(0), {x.size(0)}, torch::TensorOptions().dtype(torch::kLong).device(device_));
    x = x.index_select(0, boot);
    y = y.index_select(0, boot);
    for (int s = 0; s < steps; ++s) {
      auto idx = torch::randint(0, x.size(0), {256}, boot.options());
      auto out = net_->forward(x.index_select(0, idx));
      auto mean = out.select(1, 0), logvar = out.select(1, 1);
      auto nll = (0.5 * logvar + 0.5 * (y.index_select(0, idx) - mean).pow(2) / logvar.exp()).mean();
      opt.zero_grad();
      nll.backward();
      opt.step();
    }
  }

  void save() { torch::save(net_, "member_" + std::to_string(member_) + ".pt"); }

 private:
  int member_;
  torch::Device device_;
  MemberNet net_;
};

int main(int argc, char** argv) {
  const int members = argc > 1 ? std::atoi(argv[1]) : 4;
  const char* host = std::getenv("STORE_HOST");
  c10d::TCPStoreOptions so;
  so.port = 29600;
  so.isServer = host == nullptr;  // the process started without STORE_HOST hosts the store
  so.numWorkers = members;
  auto store = c10::make_intrusive<c10d::TCPStore>(host ? host : "127.0.0.1", so);
  const int member = static_cast<int>(store->add("next_member", 1) - 1);

  torch::manual_seed(0);  // the same data set everywhere
  auto x = torch::randn({20000, 16});
  auto y = x.sum(1).sin() + 0.1 * torch::randn({20000});
  EnsembleMember m(member);
  m.train(x, y, 3000);
  m.save();
  std::printf("member %d done\n", member);
}
