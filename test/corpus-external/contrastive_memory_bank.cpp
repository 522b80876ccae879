// MoCo-style contrastive pre-training: momentum encoder, a queue of negative keys, InfoNCE loss.
#include <torch/torch.h>

#include <deque>
#include <iostream>
#include <utility>

torch::nn::Sequential make_encoder() {
  return torch::nn::Sequential(torch::nn::Linear(256, 512), torch::nn::ReLU(), torch::nn::Linear(512, 128));
}

// Negative keys, kept in host memory so the queue can be large.
class KeyQueue {
 public:
  explicit KeyQueue(size_t capacity) : capacity_(capacity) {}
  void enqueue(const torch::Tensor& keys) {
    queue_.push_back(keys.detach().cpu());
    while (queue_.size() > capacity_) queue_.pop_front();
  }
  bool empty() const { return queue_.empty(); }
  // [B, N] similarities of the queries against every queued key.
  torch::Tensor similarities(const torch::Tensor& q) const {
    std::vector<torch::Tensor> all(queue_.begin(), queue_.end());
    auto bank = torch::cat(all, 0);
    return torch::mm(q, bank.t());  // BUG(device-mismatch): the queued keys were moved to the CPU in enqueue(); q is on the encoder's device
  }

 private:
  size_t capacity_;
  std::deque<torch::Tensor> queue_;
};

// Whitening with statistics of the current batch, reported on the host for logging.
torch::Tensor whiten(const torch::Tensor& feats) {
  std::pair<torch::Tensor, torch::Tensor> stats{feats.mean(0).cpu(), feats.std(0).cpu()};
  std::cout << "feature std range " << stats.second.min().item<float>() << ".." << stats.second.max().item<float>() << "\n";
  return (feats - stats.first) / (stats.second + 1e-6);  // BUG(device-mismatch): 1-D CPU statistics (.cpu() above) meet the device features
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto encoder_q = make_encoder();
  auto encoder_k = make_encoder();
  encoder_q->to(device);
  encoder_k->to(device);
  {
    torch::NoGradGuard no_grad;
    auto pq = encoder_q->parameters(), pk = encoder_k->parameters();
    for (size_t i = 0; i < pq.size(); ++i) pk[i].copy_(pq[i]);
  }
  torch::optim::SGD opt(encoder_q->parameters(), torch::optim::SGDOptions(0.03).momentum(0.9));
  KeyQueue queue(64);
  const double tau = 0.07, m = 0.999;

  for (int step = 0; step < 2000; ++step) {
    auto x = torch::randn({128, 256}, torch::device(device));
    auto view1 = x + 0.1 * torch::randn_like(x), view2 = x + 0.1 * torch::randn_like(x);
    auto q = torch::nn::functional::normalize(encoder_q->forward(view1), torch::nn::functional::NormalizeFuncOptions().dim(1));
    torch::Tensor k;
    {
      torch::NoGradGuard no_grad;
      auto pq = encoder_q->parameters(), pk = encoder_k->parameters();
      for (size_t i = 0; i < pq.size(); ++i) pk[i].mul_(m).add_(pq[i].detach(), 1 - m);
      k = torch::nn::functional::normalize(encoder_k->forward(view2), torch::nn::functional::NormalizeFuncOptions().dim(1));
    }
    auto pos = (q * k).sum(1, true);
    auto logits = queue.empty() ? pos : torch::cat({pos, queue.similarities(q)}, 1);
    logits = logits / tau;
    auto labels = torch::zeros({logits.size(0)}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(logits, labels);
    opt.zero_grad();
    loss.backward();
    opt.step();
    queue.enqueue(k);
    if (step % 200 == 0) {
      auto w = whiten(q.detach());
      std::cout << step << " loss " << loss.item<float>() << " whitened mean " << w.mean().item<float>() << "\n";
    }
  }
}
