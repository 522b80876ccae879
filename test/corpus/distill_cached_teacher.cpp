// Knowledge distillation: a TorchScript teacher, with teacher logits cached between epochs.
#include <torch/torch.h>
#include <torch/script.h>

#include <iostream>
#include <vector>

struct StudentImpl : torch::nn::Module {
  StudentImpl() : fc(register_module("fc", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(const torch::Tensor& x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Student);

int main(int argc, char** argv) {
  if (argc < 2) return 1;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto teacher = torch::jit::load(argv[1], device);
  teacher.eval();
  Student student;
  student->to(device);
  torch::optim::SGD opt(student->parameters(), 0.05);
  const double T = 4.0;
  auto temperature = torch::tensor(T);  // 0-dim: fine as an operand

  std::vector<torch::Tensor> inputs, cache;
  for (int i = 0; i < 8; ++i) inputs.push_back(torch::randn({32, 64}));

  {
    torch::NoGradGuard no_grad;
    for (const auto& x : inputs) {
      cache.push_back(teacher.forward({x.to(device)}).toTensor().cpu());  // cached on the host to save GPU memory
    }
  }

  for (int epoch = 0; epoch < 5; ++epoch) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto x = inputs[i].to(device);
      auto student_logp = torch::log_softmax(student->forward(x) / temperature, 1);
      auto teacher_p = torch::softmax(cache[i].to(device) / T, 1);
      auto kd = torch::kl_div(student_logp, teacher_p, at::Reduction::Mean) * (T * T);

      auto teacher_pred = cache[i].argmax(1).cpu();  // labels for the agreement metric
      auto agree = student_logp.argmax(1).eq(teacher_pred);  // BUG(device-mismatch): teacher_pred is on the CPU, student_logp on the device
      opt.zero_grad();
      kd.backward();
      opt.step();
      if (i == 0) std::cout << epoch << ' ' << kd.item<float>() << ' ' << agree.sum().item<int64_t>() << '\n';
    }
  }
}
