// Moving every tensor of a container: by-value loop variables vs references.
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

using TensorList = std::vector<torch::Tensor>;

void move_all_buggy(TensorList& tensors, torch::Device device) {
  for (auto t : tensors) {
    t = t.to(device);  // BUG(device-loop-copy-to): t is a copy of the handle; the list keeps the CPU tensors
  }
}

void move_all(TensorList& tensors, torch::Device device) {
  for (auto& t : tensors) {
    t = t.to(device);
  }
}

TensorList moved_copy(const TensorList& tensors, torch::Device device) {
  TensorList out;
  out.reserve(tensors.size());
  for (auto t : tensors) out.push_back(t.to(device));  // by value, but the result is kept
  return out;
}

void scale_in_place(TensorList& tensors) {
  for (auto t : tensors) t.mul_(0.5);  // handle copy shares storage: the list's tensors change
}

void move_named(std::map<std::string, torch::Tensor>& named, torch::Device device) {
  for (auto kv : named) {
    kv.second = kv.second.to(device);  // BUG(device-loop-copy-to): kv is a copy of the map entry
  }
  for (auto& kv : named) {
    kv.second = kv.second.to(device);
  }
}

TensorList forward_each(torch::nn::Linear& layer, const TensorList& inputs, torch::Device device) {
  TensorList outputs;
  for (auto x : inputs) {
    x = x.to(device);  // reassigned copy is used right here: fine
    outputs.push_back(layer->forward(x));
  }
  return outputs;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  TensorList batch = {torch::randn({2, 8}), torch::randn({2, 8})};
  move_all_buggy(batch, device);
  move_all(batch, device);
  scale_in_place(batch);
  auto copies = moved_copy(batch, device);

  std::map<std::string, torch::Tensor> named = {{"a", torch::ones({3})}, {"b", torch::zeros({3})}};
  move_named(named, device);

  torch::nn::Linear layer(8, 4);
  layer->to(device);
  auto outs = forward_each(layer, batch, device);

  TensorList grads = {torch::zeros({4}), torch::zeros({4})};
  for (torch::Tensor g : grads) {
    g = g.to(device);  // BUG(device-loop-copy-to): explicit by-value type, same problem
  }
  for (auto&& g : grads) g = g.to(device);
  return static_cast<int>(outs.size() + copies.size());
}
