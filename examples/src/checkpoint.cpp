#include "checkpoint.h"

#include <sstream>

std::string checkpoint_path(const std::string& dir, int64_t epoch, const std::string& what) {
  std::ostringstream os;
  os << dir << '/' << what << "_epoch" << epoch << ".pt";
  return os.str();
}

void save_checkpoint(ShapesNet& model, torch::optim::Optimizer& optimizer, const std::string& dir,
                     int64_t epoch) {
  torch::save(model, checkpoint_path(dir, epoch, "model"));
  torch::save(optimizer, checkpoint_path(dir, epoch, "optim"));
}

void resume(ShapesNet& model, torch::optim::Optimizer& optimizer, const std::string& dir,
            int64_t epoch, torch::Device device) {
  model->to(device);
  torch::load(model, checkpoint_path(dir, epoch, "model"));  // BUG(device-load-without-device): weights go back to the device they were saved from, undoing model->to(device)
  torch::load(optimizer, checkpoint_path(dir, epoch, "optim"), device);
  model->train();
}

ShapesNet load_for_inference(const std::string& path, const ShapesNetOptions& opts,
                             torch::Device device) {
  ShapesNet model(opts);
  torch::load(model, path, device);  // the device argument moves parameters and buffers
  model->eval();
  return model;
}

torch::jit::Module load_teacher(const std::string& path) {
  auto teacher = torch::jit::load(path);  // BUG(device-load-without-device): restored to the device it was traced on; students feed it tensors on the training device
  teacher.eval();
  return teacher;
}

torch::jit::Module load_traced(const std::string& path, torch::Device device) {
  auto module = torch::jit::load(path, device);
  module.eval();
  return module;
}

void export_cpu_weights(ShapesNet& model, const std::string& path) {
  auto copy = std::dynamic_pointer_cast<ShapesNetImpl>(model->clone());
  copy->to(torch::Device("CPU"));  // BUG(device-invalid-string): device type strings are lower-case ("cpu"); this throws
  torch::save(copy, path);
}
