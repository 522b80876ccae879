// Neural style transfer: optimise the pixels of an image so that its features under
// a fixed, pretrained conv net match a content image and the Gram matrices of a
// style image. L-BFGS first, then an Adam polishing phase.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct FeatureNetImpl : torch::nn::Module {
  FeatureNetImpl() {
    for (auto [in, out] : {std::pair<int64_t, int64_t>{3, 64}, {64, 128}, {128, 256}})
      stages->push_back(torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)),
                                              torch::nn::ReLU(), torch::nn::AvgPool2d(2)));
    register_module("stages", stages);
  }
  std::vector<torch::Tensor> forward(torch::Tensor x) {
    std::vector<torch::Tensor> feats;
    for (const auto& s : *stages) {
      x = s->as<torch::nn::Sequential>()->forward(x);
      feats.push_back(x);
    }
    return feats;
  }
  torch::nn::ModuleList stages;
};
TORCH_MODULE(FeatureNet);

static torch::Tensor gram(const torch::Tensor& f) {
  auto flat = f.flatten(2);
  return flat.bmm(flat.transpose(1, 2)) / static_cast<double>(flat.size(2));
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  FeatureNet net;
  torch::load(net, "feature_net.pt", device);
  net->to(device);
  net->eval();
  for (auto& p : net->parameters()) p.requires_grad_(false);

  const auto opts = torch::TensorOptions().device(device);
  auto content = torch::rand({1, 3, 256, 256}, opts), style = torch::rand({1, 3, 256, 256}, opts);
  std::vector<torch::Tensor> content_feats, style_grams;
  {
    torch::NoGradGuard no_grad;
    content_feats = net->forward(content);
    for (auto& f : net->forward(style)) style_grams.push_back(gram(f));
  }

  auto image = content.clone().requires_grad_(true);
  auto total_loss = [&] {
    auto feats = net->forward(image);  // a graph on purpose: the loss is backpropagated into the image
    auto loss = torch::mse_loss(feats[2], content_feats[2]);
    for (size_t i = 0; i < feats.size(); ++i) loss = loss + 1e4 * torch::mse_loss(gram(feats[i]), style_grams[i]);
    return loss;
  };

  torch::optim::LBFGS lbfgs({image}, torch::optim::LBFGSOptions(1.0).max_iter(20));
  for (int round = 0; round < 15; ++round) {
    auto loss = lbfgs.step([&] {
      lbfgs.zero_grad();  // inside the closure, before every re-evaluation
      auto l = total_loss();
      l.backward();
      return l;
    });
    if (round % 5 == 0) std::printf("lbfgs round %d loss %.4f\n", round, loss.item<float>());
  }

  torch::optim::Adam polish({image}, torch::optim::AdamOptions(1e-3));
  for (int it = 0; it < 200; ++it) {
    if (image.grad().defined()) image.mutable_grad().zero_();  // manual clearing, same effect as zero_grad()
    total_loss().backward();
    polish.step();
    torch::NoGradGuard no_grad;
    image.clamp_(0, 1);
  }
  torch::save(image.detach().cpu(), "stylised.pt");
}
