// Audio-visual-text fusion classifier; each sample arrives as a list of modality tensors plus named extras.
#include <torch/torch.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

struct FusionNetImpl : torch::nn::Module {
  FusionNetImpl() {
    video = register_module("video", torch::nn::Linear(512, 128));
    audio = register_module("audio", torch::nn::Linear(128, 128));
    text = register_module("text", torch::nn::Linear(768, 128));
    head = register_module("head", torch::nn::Linear(3 * 128 + 2, 7));
  }
  torch::Tensor forward(const std::vector<torch::Tensor>& m, const std::map<std::string, torch::Tensor>& extras) {
    auto fused = torch::cat({torch::relu(video(m[0])), torch::relu(audio(m[1])), torch::relu(text(m[2])),
                             extras.at("duration"), extras.at("speaker_conf")}, 1);
    return head(fused);
  }
  torch::nn::Linear video{nullptr}, audio{nullptr}, text{nullptr}, head{nullptr};
};
TORCH_MODULE(FusionNet);

struct Sample {
  std::vector<torch::Tensor> modalities;
  std::map<std::string, torch::Tensor> extras;
  torch::Tensor label;
};

Sample load_sample(int64_t batch) {
  Sample s;
  s.modalities = {torch::randn({batch, 512}), torch::randn({batch, 128}), torch::randn({batch, 768})};
  s.extras["duration"] = torch::rand({batch, 1}) * 10;
  s.extras["speaker_conf"] = torch::rand({batch, 1});
  s.label = torch::randint(0, 7, {batch}, torch::kLong);
  return s;
}

void to_device(Sample& s, torch::Device device) {
  for (torch::Tensor t : s.modalities) t = t.to(device);  // BUG(device-loop-copy-to): t copies the handle; s.modalities still holds the CPU tensors
  for (auto kv : s.extras) {
    kv.second = kv.second.to(device);  // BUG(device-loop-copy-to): kv is a copy of the map entry; s.extras is unchanged
  }
  s.label = s.label.to(device);
}

void to_device_fixed(Sample& s, torch::Device device) {
  for (auto& t : s.modalities) t = t.to(device);
  for (auto& kv : s.extras) kv.second = kv.second.to(device);
  s.label = s.label.to(device);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  FusionNet model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(2e-4));
  for (int step = 0; step < 400; ++step) {
    auto s = load_sample(32);
    if (step % 2) to_device(s, device); else to_device_fixed(s, device);
    auto loss = torch::cross_entropy_loss(model->forward(s.modalities, s.extras), s.label);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::cout << step << " " << loss.item<float>() << "\n";
  }
}
