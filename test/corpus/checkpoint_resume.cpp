// Checkpoint handling: loads after moving the model, with and without a target device.
#include <torch/torch.h>
#include <torch/script.h>

#include <string>

struct TextCnnImpl : torch::nn::Module {
  TextCnnImpl(int64_t vocab, int64_t dim, int64_t classes)
      : emb(register_module("emb", torch::nn::Embedding(vocab, dim))),
        conv(register_module("conv", torch::nn::Conv1d(torch::nn::Conv1dOptions(dim, 64, 3)))),
        fc(register_module("fc", torch::nn::Linear(64, classes))) {}
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto h = emb->forward(tokens).transpose(1, 2);
    h = torch::relu(conv->forward(h));
    return fc->forward(std::get<0>(h.max(2)));
  }
  torch::nn::Embedding emb;
  torch::nn::Conv1d conv;
  torch::nn::Linear fc;
};
TORCH_MODULE(TextCnn);

void resume_buggy(TextCnn& model, const std::string& path, torch::Device device) {
  model->to(device);
  torch::load(model, path);  // BUG(device-load-without-device): parameters adopt the checkpoint's device, undoing model->to(device)
}

void resume(TextCnn& model, const std::string& path, torch::Device device) {
  model->to(device);
  torch::load(model, path, device);
}

void resume_on_cpu(TextCnn& model, const std::string& path) {
  torch::load(model, path, torch::kCPU);
  model->to(torch::kCPU);
}

torch::jit::Module load_scripted_buggy(const std::string& path) {
  return torch::jit::load(path);  // BUG(device-load-without-device): restored to the device it was saved from
}

torch::jit::Module load_scripted(const std::string& path, torch::Device device) {
  auto m = torch::jit::load(path, device);
  m.eval();
  return m;
}

int main(int argc, char** argv) {
  if (argc < 3) return 1;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  TextCnn model(5000, 64, 3);
  resume_buggy(model, argv[1], device);
  resume(model, argv[1], device);
  TextCnn cpu_copy(5000, 64, 3);
  resume_on_cpu(cpu_copy, argv[1]);

  auto scripted = load_scripted(argv[2], device);
  auto legacy = load_scripted_buggy(argv[2]);
  auto tokens = torch::randint(0, 5000, {2, 20}, torch::TensorOptions().dtype(torch::kLong).device(device));
  torch::NoGradGuard no_grad;
  auto a = model->forward(tokens);
  auto b = scripted.forward({tokens}).toTensor();
  auto c = legacy.forward({tokens}).toTensor();
  return static_cast<int>((a - b).abs().max().item<float>() + c.numel());
}
