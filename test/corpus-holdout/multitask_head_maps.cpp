// Multi-task scene model: one shared encoder and one head per task (depth, normals,
// semantic logits). Outputs and targets are keyed by task name.
#include <torch/torch.h>

#include <cstdio>
#include <map>
#include <string>

using TensorMap = std::map<std::string, torch::Tensor>;

struct MultiTaskNetImpl : torch::nn::Module {
  MultiTaskNetImpl() {
    encoder = register_module("encoder", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1)), torch::nn::ReLU()));
    heads = register_module("heads", torch::nn::ModuleDict());
    heads->update({{"depth", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 1, 1)).ptr()},
                   {"normals", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 3, 1)).ptr()},
                   {"semantic", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 13, 1)).ptr()}});
  }
  TensorMap forward(const torch::Tensor& x) {
    auto f = encoder->forward(x);
    TensorMap out;
    for (const auto& [name, head] : heads->items()) out[name] = head->as<torch::nn::Conv2d>()->forward(f);
    return out;
  }
  torch::nn::Sequential encoder{nullptr};
  torch::nn::ModuleDict heads{nullptr};
};
TORCH_MODULE(MultiTaskNet);

struct SceneBatch {
  torch::Tensor image;
  TensorMap targets;
  TensorMap valid;  // per-pixel masks of labelled pixels
};

// What the data loader hands over: host tensors.
static SceneBatch load_batch(int64_t b) {
  SceneBatch s;
  s.image = torch::rand({b, 3, 64, 64});
  s.targets["depth"] = torch::rand({b, 1, 64, 64}) * 10;
  s.targets["normals"] = torch::nn::functional::normalize(torch::randn({b, 3, 64, 64}),
                                                          torch::nn::functional::NormalizeFuncOptions().dim(1));  // unit vectors, L1-regressed
  s.targets["semantic"] = torch::randint(0, 13, {b, 64, 64}, torch::kLong);
  s.valid["depth"] = torch::rand({b, 1, 64, 64}) > 0.2;
  return s;
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  MultiTaskNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(2e-4));
  const std::map<std::string, double> weight{{"depth", 1.0}, {"normals", 0.5}, {"semantic", 1.0}};

  for (int step = 0; step < 3000; ++step) {
    SceneBatch batch = load_batch(8);
    auto image = batch.image.to(device);
    for (auto& [name, mask] : batch.valid) mask = mask.to(device);  // by reference: the map itself is updated
    TensorMap out = net->forward(image);
    auto loss = torch::zeros({}, image.options());
    for (const auto& [task, pred] : out) {
      const torch::Tensor& target = batch.targets.at(task);
      auto l = task == "semantic" ? torch::cross_entropy_loss(pred, target) : torch::l1_loss(pred, target);  // BUG(device-unmoved-target): the image was moved, the per-task targets in the map were not: every head's loss meets host targets
      loss = loss + weight.at(task) * l;
    }
    auto depth_valid = (out.at("depth").detach() * batch.valid.at("depth")).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::printf("step %d loss %.4f valid depth %.3f\n", step, loss.item<float>(), depth_valid.item<float>());
  }
}
