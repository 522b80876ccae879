// Feature-pyramid distillation: a frozen teacher's multi-scale features (precomputed on
// the host) are matched by the student's pyramid on the device.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct PyramidBatch {
  torch::Tensor image;
  std::vector<torch::Tensor> teacher_feats;  // one per level, host memory
  std::vector<torch::Tensor> level_masks;    // valid-region masks per level
};

static PyramidBatch load_pyramid(int64_t b) {
  PyramidBatch p;
  p.image = torch::rand({b, 3, 128, 128});
  for (int64_t s : {32, 16, 8}) {
    p.teacher_feats.push_back(torch::randn({b, 64, s, s}));
    p.level_masks.push_back(torch::rand({b, 1, s, s}) > 0.1);
  }
  return p;
}

static void move_all(std::vector<torch::Tensor>& tensors, torch::Device device) {
  for (auto t : tensors) t = t.to(device);  // BUG(device-loop-copy-to): t is a copy of each element; the vector keeps its host tensors
}

struct StudentImpl : torch::nn::Module {
  StudentImpl() {
    for (int i = 0; i < 3; ++i)
      stages->push_back(torch::nn::Sequential(
          torch::nn::Conv2d(torch::nn::Conv2dOptions(i == 0 ? 3 : 64, 64, 3).stride(i == 0 ? 4 : 2).padding(1)),
          torch::nn::BatchNorm2d(64), torch::nn::ReLU()));
    register_module("stages", stages);
  }
  std::vector<torch::Tensor> forward(torch::Tensor x) {
    std::vector<torch::Tensor> out;
    for (const auto& s : *stages) out.push_back(x = s->as<torch::nn::Sequential>()->forward(x));
    return out;
  }
  torch::nn::ModuleList stages;
};
TORCH_MODULE(Student);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Student student;
  student->to(device);
  torch::optim::SGD opt(student->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));

  for (int step = 0; step < 3000; ++step) {
    PyramidBatch batch = load_pyramid(8);
    auto image = batch.image.to(device);
    move_all(batch.teacher_feats, device);
    for (torch::Tensor m : batch.level_masks) m = m.to(device, torch::kFloat);  // BUG(device-loop-copy-to): m copies the handle; level_masks still holds host bool masks
    std::vector<torch::Tensor> level_w{torch::full({1}, 1.0), torch::full({1}, 0.5), torch::full({1}, 0.25)};
    for (auto& w : level_w) w = w.to(device);  // by reference: the vector is updated
    auto feats = student->forward(image);
    auto loss = torch::zeros({}, image.options());
    for (size_t l = 0; l < feats.size(); ++l) {
      const auto& m = batch.level_masks[l];
      loss = loss + level_w[l] * torch::mse_loss(feats[l] * m, batch.teacher_feats[l] * m);
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::printf("step %d distill loss %.4f\n", step, loss.item<float>());
  }
  std::vector<torch::nn::Sequential> copies{torch::nn::Sequential(torch::nn::Linear(4, 4)), torch::nn::Sequential(torch::nn::Linear(4, 4))};
  for (auto m : copies) m->to(device);  // holders share their module: each one is moved
}
