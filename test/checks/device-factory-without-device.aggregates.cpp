#include <torch/torch.h>

#include <map>
#include <string>
#include <tuple>

// Structs a helper returns: each field keeps its own device, and a field the
// analysis does not know is not the join of the others.

struct Sample {
  torch::Tensor image, target;
};

static Sample load() {
  Sample s;
  s.image = torch::rand({4, 8});
  s.target = torch::rand({4, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'l1_loss' [device-factory-without-device]
  return s;
}

void trainStep(torch::Device device) {
  torch::nn::Linear net(8, 3);
  net->to(device);
  Sample s = load();
  auto image = s.image.to(device);
  auto loss = torch::l1_loss(net->forward(image), s.target);
}

// `std::tie` of a moved module's outputs: each is on its device.
struct TwoHeads : torch::nn::Module {
  TwoHeads() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    return std::make_tuple(fc(x), fc(x).sum(1));
  }
  torch::nn::Linear fc;
};

void tiedOutputs(torch::Device device) {
  auto heads = std::make_shared<TwoHeads>();
  heads->to(device);
  torch::Tensor logits, value;
  std::tie(logits, value) = heads->forward(torch::randn({2, 4}, torch::device(device)));
  auto returns = torch::ones({2}) + value;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+' [device-factory-without-device]
  // Negative: tied from CPU tensors.
  torch::Tensor a, b;
  std::tie(a, b) = std::make_tuple(torch::ones({2}), torch::zeros({2}));
  auto n1 = torch::ones({2}) + b;
}

// Negatives.

// A map field the analysis does not follow: not blamed on the image.
struct Tagged {
  torch::Tensor image;
  std::map<std::string, torch::Tensor> targets;
};

static Tagged loadTagged() {
  Tagged t;
  t.image = torch::rand({4, 8});
  t.targets["a"] = torch::rand({4, 3}).to(torch::kCUDA);
  return t;
}

void taggedStep(torch::Device device) {
  torch::nn::Linear net(8, 3);
  net->to(device);
  Tagged t = loadTagged();
  auto loss = torch::l1_loss(net->forward(t.image.to(device)), t.targets.at("a"));
}

// The struct's own to() moves every field.
struct Batch {
  torch::Tensor x, y;
  Batch to(torch::Device d) const { return {x.to(d), y.to(d)}; }
};

void batchStep(torch::Device device) {
  torch::nn::Linear net(8, 3);
  net->to(device);
  Batch host{torch::randn({4, 8}), torch::randint(0, 3, {4}, torch::kLong)};
  Batch b = host.to(device);
  auto loss = torch::cross_entropy_loss(net->forward(b.x), b.y);
}

// Elements replaced through a reference, in a loop nested in the step loop:
// past the inner loop, the vector is not what it was before it.
void movedByReference(torch::Device device) {
  torch::nn::Linear net(8, 1);
  net->to(device);
  for (int step = 0; step < 3; ++step) {
    auto y = net->forward(torch::randn({4, 8}).to(device));
    std::vector<torch::Tensor> w{torch::full({1}, 1.0), torch::full({1}, 0.5)};
    for (auto &t : w)
      t = t.to(device);
    auto loss = torch::zeros({}, y.options());
    for (size_t l = 0; l < w.size(); ++l)
      loss = loss + w[l] * torch::mse_loss(y, torch::zeros_like(y));
  }
}
