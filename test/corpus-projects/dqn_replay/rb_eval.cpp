// dqn_replay: evaluation entry point: greedy episodes with the saved policy.
#include <iostream>

#include "rb_agent.h"
#include "rb_env.h"
#include "rb_qnet.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/rb_qnet.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  rb::Corridor env(6);
  rb::QNet policy(env.obs_dim(), 2);
  rb::load_policy(policy, ckpt);
  policy->eval();

  double total = 0;
  for (int episode = 0; episode < 3; ++episode) {
    auto obs = env.reset();
    for (bool done = false; !done;) {
      auto x = torch::tensor(obs, torch::device(device)).unsqueeze(0);
      auto step = env.step(rb::greedy_action(policy, x));
      total += step.reward;
      obs = step.obs;
      done = step.done;
    }
  }
  std::cout << "mean return " << total / 3 << "\n";
  return 0;
}
