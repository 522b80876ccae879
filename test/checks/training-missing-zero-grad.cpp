#include <torch/torch.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor lossOf(std::shared_ptr<Net> net) {
  return net->forward(torch::randn({8, 4})).pow(2).mean();
}

// Gradients that are never cleared in the iteration.
void plain(std::shared_ptr<Net> net) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int i = 0; i < 100; ++i) {
    lossOf(net).backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: optimizer 'opt' steps in a loop whose iterations call backward() but never clear its gradients ('zero_grad()' on it or on the module it optimizes): each backward adds to the gradients of every earlier iteration, so each step applies their running sum [training-missing-zero-grad]
    // CHECK-FIXES: {{^}}    opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    opt.zero_grad();{{$}}
  }
}

void heldByPointer(std::shared_ptr<Net> net) {
  auto opt = std::make_shared<torch::optim::Adam>(net->parameters());
  int i = 0;
  while (i++ < 100) {
    auto loss = lossOf(net);
    loss.backward();
    opt->step();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: optimizer 'opt' steps in a loop {{.*}} [training-missing-zero-grad]
    // CHECK-FIXES: {{^}}    opt->step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    opt->zero_grad();{{$}}
  }
}

void clearedOnceBefore(std::shared_ptr<Net> net) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  opt.zero_grad();
  for (int i = 0; i < 100; ++i) {
    lossOf(net).backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: its gradients are cleared here, outside the loop: once, not on every iteration
  }
}

void clearedPerEpoch(std::shared_ptr<Net> net,
                     const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int epoch = 0; epoch < 10; ++epoch) {
    opt.zero_grad();
    for (const auto &x : batches) {
      net->forward(x).sum().backward();
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
      // CHECK-MESSAGES: :[[@LINE-5]]:9: note: its gradients are cleared here, outside the loop{{.*}}
    }
  }
}

// The step in a helper that the loop calls: reported there.
void backwardAndStep(const torch::Tensor &loss, torch::optim::Optimizer &o) {
  loss.backward();
  o.step();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
  // CHECK-MESSAGES: :[[@LINE+7]]:5: note: the step runs in this call, made in the loop
}

void throughHelper(std::shared_ptr<Net> net) {
  torch::optim::Adam opt(net->parameters());
  opt.zero_grad();
  for (int i = 0; i < 100; ++i)
    backwardAndStep(lossOf(net), opt);
}

// A trainer whose fit() clears once and whose step method runs per batch.
struct Trainer {
  explicit Trainer(std::shared_ptr<Net> net)
      : net(net), opt(net->parameters(), 0.1) {}
  void trainStep(const torch::Tensor &x) {
    net->forward(x).sum().backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE+7]]:9: note: the step runs in this call, made in the loop
  }
  void fit(const std::vector<torch::Tensor> &batches) {
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: note: its gradients are cleared here{{.*}}
    for (int epoch = 0; epoch < 3; ++epoch)
      for (const auto &x : batches)
        trainStep(x);
  }
  std::shared_ptr<Net> net;
  torch::optim::SGD opt;
};

// Two optimizers, one cleared.
void twoOptimizers(std::shared_ptr<Net> encoder, std::shared_ptr<Net> decoder) {
  torch::optim::Adam encOpt(encoder->parameters());
  torch::optim::Adam decOpt(decoder->parameters());
  for (int i = 0; i < 100; ++i) {
    encOpt.zero_grad();
    auto loss = decoder->forward(encoder->forward(torch::randn({2, 4})).repeat({1, 2})).sum();
    loss.backward();
    encOpt.step();
    decOpt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: optimizer 'decOpt' steps {{.*}} [training-missing-zero-grad]
  }
}

// The module cleared is not the one the optimizer holds.
void wrongModule(std::shared_ptr<Net> actor, std::shared_ptr<Net> critic) {
  torch::optim::Adam criticOpt(critic->parameters());
  for (int i = 0; i < 100; ++i) {
    actor->zero_grad();
    critic->forward(torch::randn({2, 4})).sum().backward();
    criticOpt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: optimizer 'criticOpt' steps {{.*}} [training-missing-zero-grad]
  }
}

// A lambda holds the step.
void lambdaStep(std::shared_ptr<Net> net) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto update = [&](const torch::Tensor &loss) {
    loss.backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
  };
  for (int i = 0; i < 100; ++i)
    update(lossOf(net));
}

// Accumulating over k steps, then stepping without clearing.
void accumulateNeverClear(std::shared_ptr<Net> net) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int i = 0; i < 100; ++i) {
    (lossOf(net) / 4).backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    }
  }
}

// Parameters kept in a variable first.
void paramsInAVariable(std::shared_ptr<Net> net, std::shared_ptr<Net> other) {
  auto params = net->parameters();
  torch::optim::SGD opt(params, 0.1);
  for (int i = 0; i < 100; ++i) {
    other->zero_grad();
    lossOf(net).backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: optimizer 'opt' steps {{.*}} [training-missing-zero-grad]
  }
}

// Negatives: the gradients are cleared in every iteration, or nothing
// accumulates.
void clearHelper(torch::optim::Optimizer &o) { o.zero_grad(); }

void negatives(std::shared_ptr<Net> net, std::shared_ptr<Net> other,
               const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) { // before backward
    opt.zero_grad();
    lossOf(net).backward();
    opt.step();
  }
  for (int i = 0; i < 10; ++i) { // after step
    lossOf(net).backward();
    opt.step();
    opt.zero_grad();
  }
  for (int i = 0; i < 10; ++i) { // on the module it optimizes
    net->zero_grad();
    lossOf(net).backward();
    opt.step();
  }
  for (int i = 0; i < 10; ++i) { // through a helper
    clearHelper(opt);
    lossOf(net).backward();
    opt.step();
  }
  for (int i = 0; i < 10; ++i) { // accumulation, cleared with the step
    (lossOf(net) / 4).backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  for (int i = 0; i < 10; ++i) { // cleared by hand
    lossOf(net).backward();
    opt.step();
    for (auto &p : net->parameters())
      p.mutable_grad().zero_();
  }
  for (int i = 0; i < 10; ++i) { // no backward in the loop
    opt.step();
  }
  for (const auto &x : batches) { // a fresh optimizer each iteration
    torch::optim::SGD fresh(net->parameters(), 0.1);
    net->forward(x).sum().backward();
    fresh.step();
  }
  torch::optim::LBFGS lbfgs(net->parameters());
  for (int i = 0; i < 10; ++i) { // L-BFGS clears in its closure
    lbfgs.step([&] {
      lbfgs.zero_grad();
      auto loss = lossOf(net);
      loss.backward();
      return loss;
    });
  }
  for (int i = 0; i < 10; ++i) { // gradients of the input, no optimizer
    auto x = torch::randn({2, 4}, torch::requires_grad());
    auto g = torch::autograd::grad({net->forward(x).sum()}, {x});
  }
  lossOf(net).backward(); // once, in no loop
  opt.step();
  auto mixed = net->parameters();
  auto extra = other->parameters();
  mixed.insert(mixed.end(), extra.begin(), extra.end());
  torch::optim::SGD both(mixed, 0.1);
  for (int i = 0; i < 10; ++i) { // a module cleared, and not known to be
    other->zero_grad();          // the only one the optimizer holds
    lossOf(net).backward();
    both.step();
  }
}
