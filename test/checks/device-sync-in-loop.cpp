#include <torch/torch.h>
#include <cstdio>
#include <fstream>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

// Several syncs in one loop: one finding at the first, a note at each other.
void train(std::shared_ptr<Net> net, torch::optim::Optimizer &opt, bool verbose) {
  torch::Device device = pickDevice();
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({8, 4}, device);
    auto y = torch::randint(0, 2, {8}, torch::TensorOptions(device).dtype(torch::kLong));
    opt.zero_grad();
    auto out = net->forward(x);
    auto loss = torch::nll_loss(torch::log_softmax(out, 1), y);
    loss.backward();
    opt.step();
    auto scores = out.softmax(1).cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'cpu' waits for the device on every iteration of this loop; 7 more synchronisations in this loop [device-sync-in-loop]
    auto labels = y.to(torch::kCPU); // the queue is drained: a round trip still
    // CHECK-MESSAGES: :[[@LINE-1]]:21: note: 'to' waits for the device too
    auto top = out.argmax(1).to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: note: 'to' waits for the device too
    x.mul_(2);
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: 'synchronize' waits for the device too
    std::cout << loss * 2 << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:15: note: 'operator<<' waits for the device too
    auto ones = (y == 1).nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: note: 'nonzero' waits for the device too
    if (verbose) // the same on every iteration
      std::cout << loss.mean().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:32: note: 'item' waits for the device too
    bool same = out.equal(out.detach() + 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: note: 'equal' waits for the device too

    // Not on every step.
    if (step % 100 == 0)
      std::cout << loss.item<float>() << "\n";
    if (step > 0 && step % 100 == 0)
      std::cout << loss.item<float>() << "\n";
    // On the CPU: no device to wait for.
    int64_t pick = torch::randint(0, 10, {1}).item<int64_t>();
    auto host = torch::zeros({3}).cpu();
    // To the device: no wait for the host.
    auto moved = x.to(device);
    (void)scores, (void)labels, (void)top, (void)ones, (void)same, (void)pick,
        (void)host, (void)moved;
  }
  torch::cuda::synchronize(); // once, after the loop
}

// Helpers and a method the loop calls on every step: the finding is at the
// first read, with a note at the call in the loop.
float batchAccuracy(const torch::Tensor &out, const torch::Tensor &y) {
  return (out.argmax(1) == y).sum().item<float>() / y.size(0);
}

struct Meter {
  void update(const torch::Tensor &loss) { total += loss.item<double>(); }
  double total = 0;
};

// Periodic inside the helper: not every step.
struct Logger {
  void maybeLog(int step, const torch::Tensor &loss) {
    if (step % every == 0)
      std::cout << loss.item<float>() << "\n";
  }
  int every = 100;
};

void helpers(std::shared_ptr<Net> net, Meter &meter, Logger &logger) {
  torch::Device device = pickDevice();
  double seen = 0;
  auto record = [&](const torch::Tensor &l) { seen += l.item<double>(); };
  for (int step = 0; step < 1000; ++step) {
    auto y = torch::randint(0, 2, {8}, torch::TensorOptions(device).dtype(torch::kLong));
    auto out = net->forward(torch::randn({8, 4}, device));
    auto loss = torch::nll_loss(torch::log_softmax(out, 1), y);
    batchAccuracy(out, y);
    meter.update(loss.detach() * 2);
    record(loss.mean());
    logger.maybeLog(step, loss);
  }
  std::cout << seen << "\n";
  // CHECK-MESSAGES: :[[@LINE-31]]:37: warning: 'item' waits for the device on every iteration of this loop; 2 more synchronisations in this loop [device-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: 'batchAccuracy' runs it, called on every iteration of the loop
  // CHECK-MESSAGES: :[[@LINE-29]]:58: note: 'item' waits for the device too
  // CHECK-MESSAGES: :[[@LINE-8]]:11: note: 'update' runs it, called on every iteration of the loop
  // CHECK-MESSAGES: :[[@LINE-15]]:57: note: 'item' waits for the device too
  // CHECK-MESSAGES: :[[@LINE-9]]:5: note: the lambda runs it, called on every iteration of the loop
}

// ---- Avoidable: the value is accumulated, printed, collected for after the
// loop, or not used until then. One finding each.

float accumulate(std::shared_ptr<Net> net, torch::Device device) {
  float total = 0;
  int64_t correct = 0;
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    total += out.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' waits for the device on every iteration of this loop; 1 more synchronisation in this loop [device-sync-in-loop]
    correct += (out.argmax(1) == 1).sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:43: note: 'item' waits for the device too
  }
  return total / static_cast<float>(correct + 1);
}

void printEveryStep(std::shared_ptr<Net> net, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(torch::randn({8, 4}, device)).sum();
    std::printf("step %d loss %.4f\n", step, loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
}

void logValue(const std::string &name, float value) {
  std::cerr << name << ": " << value << "\n";
}

void logThroughHelper(std::shared_ptr<Net> net, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(torch::randn({8, 4}, device)).sum();
    logValue("loss", loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
}

std::vector<torch::Tensor> collect(std::shared_ptr<Net> net,
                                   torch::Device device) {
  std::vector<torch::Tensor> predictions;
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    predictions.push_back(out.argmax(1).cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'cpu' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
  return predictions;
}

float lastValue(std::shared_ptr<Net> net, torch::Device device) {
  float last = 0;
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(torch::randn({8, 4}, device)).sum();
    last = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
  return last;
}

// The running loss is read every 100 steps only: it could stay on the device.
float runningLoss(std::shared_ptr<Net> net, torch::Device device) {
  float running = 0, best = 1e9f;
  for (int step = 1; step <= 1000; ++step) {
    auto loss = net->forward(torch::randn({8, 4}, device)).sum();
    running += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
    if (step % 100 == 0) {
      if (running < best)
        best = running;
      running = 0;
    }
  }
  return best;
}

// Ids collected for after the loop, a count returned through a reference
// parameter: both read once the loop is over.
std::vector<int64_t> sampleIds(std::shared_ptr<Net> net, torch::Device device,
                               int64_t &correct) {
  std::vector<int64_t> ids;
  for (int t = 0; t < 100; ++t) {
    auto out = net->forward(torch::randn({8, 4}, device));
    ids.push_back(out.argmax().item<int64_t>());
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' waits for the device on every iteration of this loop; 1 more synchronisation in this loop [device-sync-in-loop]
    correct += (out.argmax(1) == 1).sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:43: note: 'item' waits for the device too
  }
  return ids;
}

// An update loop whose inner loop is a rollout: the update itself steps the
// optimizer, so it is a loop of steps, not of epochs.
void rolloutThenUpdate(std::shared_ptr<Net> net, torch::optim::Optimizer &opt,
                       torch::Device device) {
  for (int update = 0; update < 100; ++update) {
    std::vector<torch::Tensor> outs;
    for (int t = 0; t < 8; ++t)
      outs.push_back(net->forward(torch::randn({8, 4}, device)));
    auto loss = torch::stack(outs).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
}

// ---- Necessary: the iteration needs the value. Not findings by default
// (device-sync-in-loop.report-necessary.cpp reports them).

struct Env {
  float step(int64_t action); // a simulator: host code out of view
  void apply(const torch::Tensor &actions);
  torch::Tensor observe();
};

void decides(std::shared_ptr<Net> net, torch::Device device) {
  float best = 1e9f;
  int bad = 0, steps = 0;
  std::vector<float> history;
  float previous = 0;
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    if (out.isnan().any().item<bool>()) // a branch
      break;
    float value = out.sum().item<float>(); // early stopping
    if (value < best) {
      best = value;
      bad = 0;
    } else if (++bad > 5) {
      break;
    }
    steps += out.max().item<float>() > 0 ? 1 : 0; // a choice
    history.push_back(out.mean().item<float>()); // read on the next iteration
    if (history.size() > 3 && history.back() > history[history.size() - 4])
      break;
    if (previous > 1.0f) // the value of the previous iteration
      continue;
    previous = out.min().item<float>();
  }
  std::cout << steps << "\n";
}

// Scores kept in the beams the next iteration hands, as a whole, to code out
// of view.
struct Beam {
  float score = 0;
};
void publish(const std::vector<Beam> &beams);

void beamScores(std::shared_ptr<Net> net, torch::Device device) {
  std::vector<Beam> beams(8), next(8);
  for (int t = 0; t < 10; ++t) {
    publish(beams);
    auto scores = net->forward(torch::randn({8, 4}, device)).sum(1).to(torch::kCPU);
    for (int k = 0; k < 8; ++k)
      next[k].score = beams[k].score + scores[k].item<float>();
    beams = next;
  }
}

void loopCondition(std::shared_ptr<Net> net, torch::optim::Optimizer &opt,
                   torch::Device device) {
  auto loss = net->forward(torch::randn({8, 4}, device)).sum();
  while (loss.item<float>() > 0.01f) { // the loop's own condition
    opt.zero_grad();
    loss.backward();
    opt.step();
    loss = net->forward(torch::randn({8, 4}, device)).sum();
  }
}

void indexesAndSizes(std::shared_ptr<Net> net, torch::Device device) {
  std::vector<int64_t> counts(2);
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    int64_t label = out.sum(0).argmax().item<int64_t>();
    counts[label] += 1; // an index
    int64_t kept = (out > 0).sum().item<int64_t>();
    auto buffer = torch::zeros({kept}, device); // a size
    (void)buffer;
  }
}

void rollout(std::shared_ptr<Net> net, Env &env, torch::Device device) {
  std::ofstream tokens("tokens.txt");
  float reward = 0;
  for (int t = 0; t < 1000; ++t) {
    auto logits = net->forward(env.observe().to(device));
    auto action = logits.argmax(-1);
    reward += env.step(action.item<int64_t>()); // stepped with the action
    env.apply(logits.softmax(-1).cpu());          // handed to a simulator
    tokens << logits.argmax().item<int64_t>() << ' '; // written to a file
  }
  std::cout << reward << "\n";
}

// The loss read once per epoch, in a loop that runs whole step loops.
void epochs(std::shared_ptr<Net> net, torch::optim::Optimizer &opt) {
  torch::Device device = pickDevice();
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto running = torch::zeros({}, device);
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      auto loss = net->forward(torch::randn({8, 4}, device)).sum();
      loss.backward();
      opt.step();
      running += loss.detach();
    }
    std::cout << running.item<float>() << "\n";
  }
}

// The same with the step loop in a helper: the epoch loop steps nothing itself.
void trainEpoch(std::shared_ptr<Net> net, torch::optim::Optimizer &opt,
                torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    net->forward(torch::randn({8, 4}, device)).sum().backward();
    opt.step();
  }
}

void epochsThroughHelper(std::shared_ptr<Net> net, torch::optim::Optimizer &opt,
                         torch::Device device) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    trainEpoch(net, opt, device);
    auto val = net->forward(torch::randn({8, 4}, device)).sum();
    std::cout << val.item<float>() << "\n";
  }
}

// A loop that queues no device work: the first read drains the queue, the
// others wait for nothing.
void perClass(const torch::Tensor &correct) {
  for (int c = 0; c < 10; ++c)
    std::cout << correct[c].item<float>() << "\n";
}

// Parameters saved one by one: a copy each, no work queued between them.
void save(std::shared_ptr<Net> net) {
  for (const auto &p : net->named_parameters())
    std::cout << p.key() << p.value().to(torch::kCPU).sizes() << "\n";
}

torch::Tensor sampleOnHost() { return torch::rand({4}); }

void hostSamples(std::shared_ptr<Net> net, torch::Device device) {
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    float v = sampleOnHost().max().item<float>(); // a CPU tensor
    (void)y, (void)v;
  }
}
