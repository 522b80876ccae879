// Multiple-instance learning head: gated attention pooling over a bag of patch embeddings.
#include <torch/torch.h>

#include <iostream>
#include <memory>

struct GateImpl : torch::nn::Module {
  explicit GateImpl(int64_t dim)
      : v(register_module("v", torch::nn::Linear(dim, 128))), u(register_module("u", torch::nn::Linear(dim, 128))) {}
  torch::Tensor forward(const torch::Tensor& h) { return torch::tanh(v(h)) * torch::sigmoid(u(h)); }
  torch::nn::Linear v, u;
};

class AttentionMILImpl : public torch::nn::Module {
 public:
  AttentionMILImpl(int64_t dim, int64_t classes) {
    proj = torch::nn::Linear(dim, dim);
    gate = register_module("gate", std::make_shared<GateImpl>(dim));
    score = register_module("score", torch::nn::Linear(128, 1));
    classifier = register_module("classifier", torch::nn::Linear(dim, classes));
    temperature = register_parameter("temperature", torch::ones({1}));
  }

  // bag: [N, dim] patch embeddings of one slide
  torch::Tensor forward(const torch::Tensor& bag) {
    auto h = torch::relu(proj(bag));
    auto a = score(gate->forward(h)).squeeze(1) / temperature;
    auto w = torch::softmax(a, 0);
    last_weights = w.detach();
    return classifier(torch::matmul(w.unsqueeze(0), h));
  }

  torch::Tensor last_weights;  // written by forward() for visualisation
  torch::nn::Linear proj{nullptr};  // BUG(device-unregistered-member): never registered: not moved by to(), not trained, not saved
  std::shared_ptr<GateImpl> gate;
  torch::nn::Linear score{nullptr}, classifier{nullptr};
  torch::Tensor temperature;
};
TORCH_MODULE(AttentionMIL);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  AttentionMIL model(512, 2);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-4).weight_decay(1e-5));
  for (int slide = 0; slide < 1000; ++slide) {
    const int64_t patches = 200 + slide % 300;
    auto bag = torch::randn({patches, 512}, torch::device(device));
    auto label = torch::full({1}, slide % 2, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(model->forward(bag), label);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (slide % 100 == 0) {
      auto top = model->last_weights.argmax().item<int64_t>();
      std::cout << "slide " << slide << " loss " << loss.item<float>() << " top patch " << top << "\n";
    }
  }
}
