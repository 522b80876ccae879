// dqn_replay: training entry point: collect transitions, learn from replay, sync the target.
#include <iostream>
#include <random>

#include "rb_agent.h"
#include "rb_buffer.h"
#include "rb_env.h"
#include "rb_qnet.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/rb_qnet.pt";
  torch::manual_seed(0);
  std::mt19937 rng(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  rb::Corridor env(6);
  rb::QNet online(env.obs_dim(), 2), target(env.obs_dim(), 2);
  online->to(device);
  target->to(device);
  rb::hard_update(target, online);
  rb::Agent agent(online, target, 2);
  rb::ReplayBuffer buffer(256, env.obs_dim(), device);

  int64_t steps = 0;
  for (int episode = 0; episode < 4; ++episode) {
    auto obs = env.reset();
    for (bool done = false; !done; ++steps) {
      const auto action = agent.act(obs, 0.5, rng);
      auto step = env.step(action);
      buffer.push(obs, action, step.reward, step.obs, step.done);
      obs = step.obs;
      done = step.done;
      if (buffer.size() >= 16) agent.learn(buffer, 16, 0.99);
      if (steps % 10 == 0) agent.sync_target();
    }
    torch::NoGradGuard no_grad;
    auto probe = torch::tensor(env.reset(), torch::device(device)).unsqueeze(0);
    std::cout << "episode " << episode << " max Q at start " << rb::max_q_host(online->forward(probe)) << "\n";
  }
  torch::save(online, ckpt);
  return 0;
}
