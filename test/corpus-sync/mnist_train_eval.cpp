// MNIST-style classifier: a training epoch, a validation pass, early stopping on the validation
// loss and a final pass that keeps every prediction for a report written after the loop.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(1)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)))),
        fc(register_module("fc", torch::nn::Linear(32 * 7 * 7, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    return fc(x.flatten(1));
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

struct Batch {
  torch::Tensor images, labels;
};

std::vector<Batch> synthetic_split(int batches, int size) {
  std::vector<Batch> out;
  for (int i = 0; i < batches; ++i)
    out.push_back({torch::randn({size, 1, 28, 28}), torch::randint(0, 10, {size})});
  return out;
}

float train_epoch(Net& model, torch::optim::SGD& opt, const std::vector<Batch>& data,
                  const torch::Device& device, const torch::Tensor& lr_table, int64_t& step) {
  model->train();
  float running = 0.f;
  for (const auto& b : data) {
    // lr_table is built by torch::linspace without a device and never moved: a host tensor.
    double lr = lr_table[step].item<double>();  // SYNC(cpu): the warm-up table lives on the CPU
    for (auto& group : opt.param_groups())
      static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
    auto x = b.images.to(device);
    auto y = b.labels.to(device);
    opt.zero_grad();
    auto loss = torch::cross_entropy_loss(model->forward(x), y);
    loss.backward();
    opt.step();
    running += loss.item<float>();  // BUG(device-sync-in-loop): avoidable: accumulated on the host, only returned after the loop
    ++step;
  }
  return running / static_cast<float>(data.size());
}

torch::Tensor evaluate(Net& model, const std::vector<Batch>& data, const torch::Device& device,
                       int64_t& correct) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto loss_sum = torch::zeros({}, torch::TensorOptions().device(device));
  correct = 0;
  for (const auto& b : data) {
    auto x = b.images.to(device);
    auto y = b.labels.to(device);
    auto logits = model->forward(x);
    loss_sum += torch::cross_entropy_loss(logits, y, {}, torch::Reduction::Sum);
    correct += logits.argmax(1).eq(y).sum().item<int64_t>();  // BUG(device-sync-in-loop): avoidable: a counter that is only read after the loop
  }
  return loss_sum / static_cast<double>(data.size() * data.front().labels.size(0));
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  auto train = synthetic_split(50, 64);
  auto val = synthetic_split(10, 256);
  const int epochs = 20, patience = 3;
  auto lr_table = torch::linspace(1e-3, 5e-2, epochs * 50);  // host tensor: no device, never moved

  float best = 1e9f;
  int bad_epochs = 0;
  int64_t step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    float train_loss = train_epoch(model, opt, train, device, lr_table, step);
    int64_t correct = 0;
    auto val_loss = evaluate(model, val, device, correct);
    float v = val_loss.item<float>();  // SYNC(necessary): decides checkpointing and early stopping in this iteration
    std::cout << "epoch " << epoch << " train " << train_loss << " val " << v << " acc "
              << static_cast<double>(correct) / (10 * 256) << '\n';
    if (v < best - 1e-4f) {
      best = v;
      bad_epochs = 0;
      torch::save(model, "best_mnist.pt");
    } else if (++bad_epochs >= patience) {
      break;
    }
  }

  // Final pass: every prediction is kept for a report written once the loop is done.
  torch::NoGradGuard no_grad;
  model->eval();
  std::vector<torch::Tensor> predictions;
  for (const auto& b : val) {
    auto logits = model->forward(b.images.to(device));
    predictions.push_back(logits.argmax(1).detach().cpu());  // BUG(device-sync-in-loop): avoidable: per-batch copy collected for after the loop
  }
  auto all = torch::cat(predictions);
  std::cout << "predicted class histogram: " << torch::bincount(all, {}, 10) << '\n';
  return 0;
}
