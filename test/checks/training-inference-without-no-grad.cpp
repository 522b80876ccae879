#include <torch/script.h>
#include <torch/torch.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// Evaluation after eval(), with autograd on.
void evaluate(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  net->eval();
  torch::Tensor correct = torch::zeros({});
  for (const auto &x : xs) {
    auto out = net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'net' runs forward in a loop of evaluation code with autograd on: no torch::NoGradGuard or c10::InferenceMode is in scope, so each call records an autograd graph and keeps its activations for a backward that never comes (memory and time on every iteration) [training-inference-without-no-grad]
    // CHECK-MESSAGES: :[[@LINE-5]]:8: note: the module is put in evaluation mode here
    // CHECK-FIXES: {{^}}    torch::NoGradGuard no_grad;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto out = net->forward(x);{{$}}
    correct = correct + out.argmax(1).eq(0).sum();
  }
}

void holderCall(torch::nn::Linear fc, const std::vector<torch::Tensor> &xs) {
  fc->train(false);
  std::vector<torch::Tensor> outs;
  for (const auto &x : xs) {
    outs.push_back(fc(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'fc' runs forward {{.*}} [training-inference-without-no-grad]
  }
}

void scripted(torch::jit::Module &module, const std::vector<torch::Tensor> &xs) {
  module.eval();
  for (const auto &x : xs) {
    auto out = module.forward({x}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'module' runs forward {{.*}} [training-inference-without-no-grad]
  }
}

void generate(std::shared_ptr<Net> net, torch::Tensor state, int steps) {
  net->eval();
  int i = 0;
  while (i++ < steps) {
    state = net->forward(state).repeat({1, 2});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'net' runs forward {{.*}} [training-inference-without-no-grad]
  }
}

void evalEachIteration(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  for (const auto &x : xs) {
    net->eval();
    auto out = net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'net' runs forward {{.*}} [training-inference-without-no-grad]
  }
}

// Training, then validation in the same epoch loop.
void trainThenValidate(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    net->train();
    for (const auto &x : xs) {
      opt.zero_grad();
      net->forward(x).sum().backward();
      opt.step();
    }
    net->eval();
    double total = 0;
    for (const auto &x : xs)
      total += net->forward(x).sum().item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'net' runs forward {{.*}} [training-inference-without-no-grad]
  }
}

// The forward in a helper; eval() in the caller.
torch::Tensor predict(std::shared_ptr<Net> model, const torch::Tensor &x) {
  return model->forward(x).softmax(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'model' runs forward {{.*}} [training-inference-without-no-grad]
  // CHECK-MESSAGES: :[[@LINE+7]]:10: note: the module is put in evaluation mode here
  // CHECK-MESSAGES: :[[@LINE+8]]:21: note: the forward runs in this call, made in the loop
}

void predictAll(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> probs;
  auto model = net;
  model->eval();
  for (const auto &x : xs)
    probs.push_back(predict(model, x));
}

// The constructor of the class that holds the module puts it in eval().
struct Evaluator {
  explicit Evaluator(std::shared_ptr<Net> m) : model(std::move(m)) {
    model->eval();
  }
  double run(const std::vector<torch::Tensor> &xs) {
    double sum = 0;
    for (const auto &x : xs)
      sum += model->forward(x).sum().item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'model' runs forward {{.*}} [training-inference-without-no-grad]
    return sum;
  }
  std::shared_ptr<Net> model;
};

// A lambda the loop calls.
void lambdas(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  net->eval();
  auto score = [&](const torch::Tensor &x) {
    return net->forward(x).max();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'net' runs forward {{.*}} [training-inference-without-no-grad]
  };
  for (const auto &x : xs)
    score(x);
}

// A validation helper that main() calls after eval().
double validate(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  double loss = 0;
  for (const auto &x : xs)
    loss += net->forward(x).pow(2).mean().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'net' runs forward {{.*}} [training-inference-without-no-grad]
  return loss;
}

void runValidation(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  net->eval();
  validate(net, xs);
}

// A method of the module runs its own forward; the loop calls the method.
struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(4, 3)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::Tensor predict(torch::Tensor x) { return forward(x).argmax(1); }
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'model' runs forward {{.*}} [training-inference-without-no-grad]
  torch::nn::Linear fc{nullptr};
};

void classifyAll(std::shared_ptr<Classifier> model,
                 const std::vector<torch::Tensor> &xs) {
  model->eval();
  for (const auto &x : xs)
    model->predict(x);
}

// Negatives.
void guarded(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  net->eval();
  for (const auto &x : xs)
    net->forward(x);
}

void guardedBlock(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  net->eval();
  {
    c10::InferenceMode guard;
    for (const auto &x : xs)
      net->forward(x);
  }
  {
    torch::AutoGradMode off(false);
    for (const auto &x : xs)
      net->forward(x);
  }
  for (const auto &x : xs) {
    torch::NoGradGuard inside;
    net->forward(x);
  }
}

double scoreAll(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  double s = 0;
  for (const auto &x : xs)
    s += net->forward(x).sum().item<double>();
  return s;
}

void guardInTheCaller(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  net->eval();
  torch::NoGradGuard no_grad;
  scoreAll(net, xs);
}

void frozen(std::shared_ptr<Net> backbone, const std::vector<torch::Tensor> &xs) {
  for (auto &p : backbone->parameters())
    p.requires_grad_(false);
  backbone->eval();
  std::vector<torch::Tensor> features;
  for (const auto &x : xs)
    features.push_back(backbone->forward(x));
}

void backpropagatedOnPurpose(std::shared_ptr<Net> net,
                             const std::vector<torch::Tensor> &xs) {
  net->eval();
  for (const auto &x : xs) { // adversarial inputs: the gradient is wanted
    auto input = x.clone().requires_grad_(true);
    net->forward(input).sum().backward();
  }
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs) // a loss summed, then backpropagated
    total = total + net->forward(x).sum();
  total.backward();
  for (const auto &x : xs) { // gradients of the input
    auto input = x.clone().requires_grad_(true);
    auto g = torch::autograd::grad({net->forward(input).sum()}, {input});
  }
}

torch::Tensor lossOver(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs)
    total = total + net->forward(x).sum();
  return total;
}

void backpropagatedByTheCaller(std::shared_ptr<Net> net,
                               const std::vector<torch::Tensor> &xs) {
  net->eval();
  auto loss = lossOver(net, xs);
  loss.backward();
}

void trainingMode(std::shared_ptr<Net> net, const std::vector<torch::Tensor> &xs) {
  for (const auto &x : xs) // never put in eval()
    net->forward(x);
  net->eval();
  net->train();
  for (const auto &x : xs) // back in training mode
    net->forward(x);
  net->eval();
  for (const auto &x : xs) { // switched to training inside the loop
    net->train();
    net->forward(x);
  }
}

struct Stack : torch::nn::Module {
  Stack() {
    for (int i = 0; i < 3; ++i)
      layers.push_back(register_module("l" + std::to_string(i), torch::nn::Linear(4, 4)));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &layer : layers) // the module's own loop over its layers
      x = layer->forward(x);
    return x;
  }
  std::vector<torch::nn::Linear> layers;
};

void once(std::shared_ptr<Stack> stack) {
  stack->eval();
  torch::NoGradGuard no_grad;
  stack->forward(torch::randn({2, 4}));
}
