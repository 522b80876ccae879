// Regularised training of a tabular net: scalar hyper-parameters as tensors, host-side sampling indices.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct TabNetImpl : torch::nn::Module {
  TabNetImpl(int64_t in, int64_t out)
      : l1(register_module("l1", torch::nn::Linear(in, 128))),
        l2(register_module("l2", torch::nn::Linear(128, 128))),
        head(register_module("head", torch::nn::Linear(128, out))) {}
  torch::Tensor forward(const torch::Tensor& x) { return head(torch::relu(l2(torch::relu(l1(x))))); }
  torch::nn::Linear l1, l2, head;
};
TORCH_MODULE(TabNet);

torch::Tensor l2_penalty(TabNet& net) {
  torch::Tensor total;
  for (const auto& p : net->parameters()) {
    auto sq = p.pow(2).sum();
    total = total.defined() ? total + sq : sq;
  }
  return total;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t n = 20000, in = 30, classes = 4;
  auto features = torch::randn({n, in}, torch::device(device));
  auto targets = torch::randint(0, classes, {n}, torch::TensorOptions().dtype(torch::kLong).device(device));

  TabNet net(in, classes);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  auto weight_decay = torch::tensor(1e-4);                 // 0-dim: fine as an element-wise input
  auto label_smooth = torch::scalar_tensor(0.1);
  auto running = torch::zeros({});
  auto host_noise_scale = torch::rand({in}).mean();       // 0-dim CPU result of a reduction
  auto feature_buffer = torch::empty({256, in}, features.options());

  for (int step = 0; step < 2000; ++step) {
    auto idx = torch::randint(0, n, {256}, torch::kLong);  // host indices into device tensors: index() moves them
    auto x = features.index({idx});
    auto y = targets.index({idx});
    feature_buffer.copy_(x + host_noise_scale * torch::randn_like(x));
    auto logits = net->forward(feature_buffer);
    auto logp = torch::log_softmax(logits, 1);
    auto nll = torch::nll_loss(logp, y);
    auto smooth = -logp.mean(1).mean();
    auto loss = (1 - label_smooth) * nll + label_smooth * smooth + weight_decay * l2_penalty(net);
    opt.zero_grad();
    loss.backward();
    opt.step();
    running = running + loss.detach();

    // hard-example mining on the host copy, written back with index_put_
    auto per_sample = torch::nll_loss(logp.detach(), y, {}, torch::Reduction::None).cpu();
    auto hard = std::get<1>(per_sample.topk(16));
    auto boost = torch::full({16}, 0.01, features.options());
    features.index_put_({idx.index({hard})}, features.index({idx.index({hard})}) + boost.unsqueeze(1));

    if (step % 500 == 0) {
      auto acc = logits.argmax(1).eq(y).to(torch::kFloat).mean().item<float>();
      auto first_class = logits.argmax(1).eq(0).sum().item<int64_t>();
      std::cout << step << " loss " << (running / (step + 1)).item<float>() << " acc " << acc << " class0 " << first_class << "\n";
    }
  }
}
