// Deploying a trained locomotion policy in a rigid-body simulator with a C API: each control
// tick the torques go to the simulator as a float array, with a safety stop and telemetry.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <vector>

// Stand-in for a simulator's C interface (MuJoCo-style): host memory in, host memory out.
class Simulator {
 public:
  explicit Simulator(int joints) : q_(joints, 0.f), qd_(joints, 0.f) {}
  void apply(const float* torques, int n) {
    for (int j = 0; j < n; ++j) {
      qd_[j] += 0.002f * (torques[j] - 0.1f * qd_[j]);
      q_[j] += 0.002f * qd_[j];
    }
  }
  std::vector<float> observation() const {
    std::vector<float> o(q_);
    o.insert(o.end(), qd_.begin(), qd_.end());
    return o;
  }

 private:
  std::vector<float> q_, qd_;
};

struct PolicyImpl : torch::nn::Module {
  PolicyImpl(int64_t obs, int64_t act)
      : l1(register_module("l1", torch::nn::Linear(obs, 256))),
        l2(register_module("l2", torch::nn::Linear(256, 256))),
        mu(register_module("mu", torch::nn::Linear(256, act))),
        value(register_module("value", torch::nn::Linear(256, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = torch::elu(l2(torch::elu(l1(x))));
    return {torch::tanh(mu(h)) * 40.0, value(h)};
  }
  torch::nn::Linear l1, l2, mu, value;
};
TORCH_MODULE(Policy);

int main() {
  const int joints = 12;
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Policy policy(2 * joints, joints);
  torch::load(policy, "walker_policy.pt", device);
  policy->eval();
  torch::NoGradGuard no_grad;

  Simulator sim(joints);
  const float obs_limit = 50.f;
  for (int tick = 0; tick < 20000; ++tick) {
    auto obs_host = sim.observation();
    auto obs = torch::from_blob(obs_host.data(), {1, 2 * joints}).clone().to(device);
    // Hard case: the observation came from the host; checking it there would need no sync at all.
    // As written the check runs on the device and the host branches on it: control flow.
    if (obs.abs().max().item<float>() > obs_limit) {  // SYNC(necessary): safety stop ends the rollout now
      std::cerr << "observation out of range at tick " << tick << ", stopping\n";
      break;
    }
    auto [torques, v] = policy->forward(obs);
    // The host copy lives until the end of the full expression, i.e. through apply().
    sim.apply(torques.contiguous().cpu().data_ptr<float>(), joints);  // SYNC(necessary): the simulator's C API reads the torques now
    std::cout << "[tick " << tick << "] value " << v.item<float>() << '\n';  // BUG(device-sync-in-loop): avoidable: telemetry printed every tick
  }

  // Domain randomisation check: exploration noise drawn on the CPU (no device) and added on the host.
  Simulator probe(joints);
  auto noise = torch::randn({200, joints}) * 0.5;  // host tensor: never moved
  for (int tick = 0; tick < 200; ++tick) {
    std::vector<float> tq(joints);
    for (int j = 0; j < joints; ++j) tq[j] = noise[tick][j].item<float>();  // SYNC(cpu): host noise, no device involved
    probe.apply(tq.data(), joints);
  }
  auto final_obs = probe.observation();
  std::cout << "probe q0 " << final_obs[0] << '\n';
  return 0;
}
