#include <torch/script.h>
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void positives(torch::Tensor x) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  model->train();
  auto y1 = model->forward(x.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'model' is built on the CPU and never moved, but its input 'x.to(device)' is on 'device' (which may be a GPU): its forward fails with 'Expected all tensors to be on the same device' (convolutions: 'Input type (CUDAFloatType) and weight type (CPUFloatType) should be the same') [device-unmoved-module]
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'model' is built here, on the CPU; no 'Module::to' moves it
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: moved to 'device' (which may be a GPU) here
  torch::save(model, "model.pt");

  torch::nn::Linear fc(784, 10);
  auto input = torch::randn({2, 784}, torch::device(device));
  auto y2 = fc(input);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'fc' is built on the CPU and never moved, but its input 'input' is on 'device' {{.*}} [device-unmoved-module]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'fc' is built here, on the CPU; no 'Module::to' moves it
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: created on 'device' (which may be a GPU) here

  Net net;
  auto y3 = net.forward(torch::ones({3, 784}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'net' is built on the CPU and never moved, but its input 'torch::ones({3, 784}).cuda()' is on an accelerator: {{.*}} [device-unmoved-module]
}

// Only a finding while the model is on the CPU: moved after its first
// forward, the loop's later forwards are fine, its first one is not.
void movedTooLate(torch::Device device, torch::Tensor x) {
  auto model = std::make_shared<Net>();
  auto early = model->forward(x.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'model' is built on the CPU and never moved, but {{.*}} [device-unmoved-module]
  model->to(device);
  auto late = model->forward(x.to(device));
}

// A helper of this file called with a tensor on the device.
void predict(const torch::Tensor &batch) {
  torch::nn::Sequential seq(torch::nn::Linear(784, 10), torch::nn::ReLU());
  auto out = seq->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'seq' is built on the CPU and never moved, but its input 'batch' is on 'torch::kCUDA'{{.*}} [device-unmoved-module]
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'seq' is built here, on the CPU; no 'Module::to' moves it
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: 'predict' is called here with 'torch::rand({1, 784}).to(torch::kCUDA)' on 'torch::kCUDA'
}
void callsPredict() {
  predict(torch::rand({1, 784}).to(torch::kCUDA));
}

// ---- Negatives ----

void moveModel(std::shared_ptr<Net> &model, torch::Device device) {
  model->to(device);
}
void unknownHelper(std::shared_ptr<Net> model);
struct Trainer {
  explicit Trainer(std::shared_ptr<Net> model);
};

void movedInAHelper(torch::Device device, torch::Tensor x) {
  auto model = std::make_shared<Net>();
  moveModel(model, device);
  auto y = model->forward(x.to(device));
}

void givenToCodeOutOfSight(torch::Device device, torch::Tensor x) {
  auto a = std::make_shared<Net>();
  unknownHelper(a);
  auto y1 = a->forward(x.to(device));
  auto b = std::make_shared<Net>();
  Trainer trainer(b);
  auto y2 = b->forward(x.to(device));
  auto c = std::make_shared<Net>();
  auto alias = c;
  alias->to(device);
  auto y3 = c->forward(x.to(device));
  auto d = std::make_shared<Net>();
  auto later = [&] { d->to(device); };
  later();
  auto y4 = d->forward(x.to(device));
}

struct Parent : torch::nn::Module {
  Parent() { child = register_module("child", std::make_shared<Net>()); }
  std::shared_ptr<Net> child;
};

void movedThroughItsParent(torch::Device device, torch::Tensor x) {
  auto parent = std::make_shared<Parent>();
  parent->to(device);
  auto y = parent->child->forward(x.to(device));
}

void cpuOnly(torch::Tensor x) {
  auto model = std::make_shared<Net>();
  model->to(torch::kCPU);
  auto y1 = model->forward(x.to(torch::kCPU));
  auto other = std::make_shared<Net>();
  auto y2 = other->forward(x.to(torch::kCPU));
  auto y3 = other->forward(torch::ones({1, 784}));
}

void builtOnTheDevice(torch::Device device, torch::Tensor x) {
  torch::nn::Linear fc(torch::nn::LinearOptions(784, 10));
  fc->to(device, /*non_blocking=*/true);
  auto y = fc(x.to(device));
}

void movedOnOnePath(torch::Device device, torch::Tensor x, bool gpu) {
  auto model = std::make_shared<Net>();
  if (gpu)
    model->to(device);
  auto y = model->forward(x.to(device));
}

void loadedFromACheckpoint(torch::Device device, torch::Tensor x) {
  auto model = std::make_shared<Net>();
  torch::load(model, "model.pt");
  auto y = model->forward(x.to(device));
}

void scriptModule(torch::Device device, torch::Tensor x) {
  torch::jit::script::Module module = torch::jit::load("model.pt", device);
  auto y = module.forward({x.to(device)});
}

std::shared_ptr<Net> makeModel();

void builtElsewhere(torch::Device device, torch::Tensor x) {
  auto model = makeModel();
  auto y = model->forward(x.to(device));
}

struct SelfMoving : torch::nn::Module {
  SelfMoving() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    to(torch::kCUDA);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

struct OverridesTo : torch::nn::Module {
  OverridesTo() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

struct DeclaredOnly : torch::nn::Module {
  DeclaredOnly();
  torch::Tensor forward(torch::Tensor x);
};

void classesThatMoveThemselves(torch::Tensor x) {
  auto a = std::make_shared<SelfMoving>();
  auto y1 = a->forward(x.cuda());
  auto b = std::make_shared<OverridesTo>();
  auto y2 = b->forward(x.cuda());
  auto c = std::make_shared<DeclaredOnly>();
  auto y3 = c->forward(x.cuda());
}

void inputOfUnknownDevice(torch::Tensor x) {
  auto model = std::make_shared<Net>();
  auto y = model->forward(x);
}
