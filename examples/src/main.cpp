#include "checkpoint.h"
#include "eval.h"
#include "model.h"
#include "train.h"

#include <iostream>
#include <string>

namespace {

struct Args {
  std::string mode = "train";
  std::string device;  // empty: pick automatically
  std::string resume_dir;
  std::string export_path = "shapes_cpu.pt";
  int64_t resume_epoch = 0;
  TrainConfig train;
};

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--mode") args.mode = value;
    else if (key == "--device") args.device = value;
    else if (key == "--data") args.train.data_path = value;
    else if (key == "--epochs") args.train.epochs = std::stoll(value);
    else if (key == "--resume") args.resume_dir = value;
    else if (key == "--resume-epoch") args.resume_epoch = std::stoll(value);
    else if (key == "--export") args.export_path = value;
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);

  // The one place that chooses the device.
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  if (!args.device.empty()) device = torch::Device(args.device);  // e.g. --device cuda:1
  std::cout << "using " << device << '\n';
  torch::manual_seed(42);

  ShapesNet model(ShapesNetOptions{});
  model->to(device);

  // Print the output shape once, as a sanity check of the architecture.
  auto sample = model->forward(torch::zeros({1, 3, 64, 64})).front();  // BUG(device-unmoved-input): model is on `device`, the dummy input on the CPU
  std::cout << "logits: " << sample.sizes() << '\n';
  auto warmup = model->forward(torch::zeros({2, 3, 64, 64}, torch::TensorOptions().device(device)));

  if (args.mode == "train") {
    if (!args.resume_dir.empty()) {
      torch::optim::Adam optimizer(model->parameters());
      resume(model, optimizer, args.resume_dir, args.resume_epoch, device);
    }
    train(model, args.train, device);
  } else if (args.mode == "eval") {
    auto result = evaluate(model, args.train.data_path, device, 128);
    std::cout << "accuracy " << result.accuracy << '\n' << result.confusion << '\n';
  } else if (args.mode == "bench") {
    std::cout << "latency " << benchmark_latency(model, 100) << " ms\n";
  } else if (args.mode == "export") {
    export_cpu_weights(model, args.export_path);
  }
  return 0;
}
