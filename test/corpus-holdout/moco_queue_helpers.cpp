// MoCo-style contrastive learning: a momentum encoder produces keys, which are pushed
// into a fixed-size queue of negatives kept by a small helper class.
#include <torch/torch.h>

#include <cstdio>

static torch::Tensor random_unit_columns(int64_t dim, int64_t k) {
  auto q = torch::randn({dim, k});  // BUG(device-factory-without-device): returned to KeyQueue, whose logits() multiplies the device queries with it
  return q / q.norm(2, 0, /*keepdim=*/true);
}

class KeyQueue {
 public:
  KeyQueue(int64_t dim, int64_t size) : queue_(random_unit_columns(dim, size)), size_(size) {}
  // [B, 1 + K] logits: the positive first, then the queued negatives.
  torch::Tensor logits(const torch::Tensor& q, const torch::Tensor& k, double tau) const {
    auto pos = (q * k).sum(1, /*keepdim=*/true);
    auto neg = q.matmul(queue_);
    return torch::cat({pos, neg}, 1) / tau;
  }
  void push(const torch::Tensor& keys) {
    const int64_t b = keys.size(0);
    queue_.slice(1, ptr_, ptr_ + b).copy_(keys.t());
    ptr_ = (ptr_ + b) % size_;
  }

 private:
  torch::Tensor queue_;
  int64_t size_, ptr_ = 0;
};

static torch::nn::Sequential encoder() {
  return torch::nn::Sequential(torch::nn::Linear(512, 512), torch::nn::ReLU(), torch::nn::Linear(512, 128));
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto enc_q = encoder(), enc_k = encoder();
  enc_q->to(device);
  enc_k->to(device);
  {
    torch::NoGradGuard no_grad;
    auto pq = enc_q->parameters(), pk = enc_k->parameters();
    for (size_t i = 0; i < pq.size(); ++i) pk[i].copy_(pq[i]);
  }
  for (auto& p : enc_k->parameters()) p.requires_grad_(false);
  torch::optim::SGD opt(enc_q->parameters(), torch::optim::SGDOptions(0.03).momentum(0.9));
  KeyQueue queue(128, 4096);
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 5000; ++step) {
    auto x = torch::randn({256, 512}, opts);
    auto q = torch::nn::functional::normalize(enc_q->forward(x + 0.1 * torch::randn_like(x)),
                                              torch::nn::functional::NormalizeFuncOptions().dim(1));
    auto k = torch::nn::functional::normalize(enc_k->forward(x + 0.1 * torch::randn_like(x)),
                                              torch::nn::functional::NormalizeFuncOptions().dim(1));
    auto logits = queue.logits(q, k, 0.07);
    auto labels = torch::zeros({logits.size(0)}, torch::kLong);  // BUG(device-factory-without-device): CPU class indices for the device logits of cross_entropy
    auto loss = torch::cross_entropy_loss(logits, labels);
    opt.zero_grad();
    loss.backward();
    opt.step();
    {
      torch::NoGradGuard no_grad;
      auto pq = enc_q->parameters(), pk = enc_k->parameters();
      for (size_t i = 0; i < pq.size(); ++i) pk[i].mul_(0.999).add_(pq[i], 0.001);
      queue.push(k);
    }
    if (step % 500 == 0) std::printf("step %d loss %.4f\n", step, loss.item<float>());
  }
}
