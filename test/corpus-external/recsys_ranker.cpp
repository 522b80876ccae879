// Candidate ranking service: user/item embeddings initialised from a pretrained archive, scored per request.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

struct RankerImpl : torch::nn::Module {
  RankerImpl(int64_t users, int64_t items, int64_t dim) {
    user_emb = register_module("user_emb", torch::nn::Embedding(users, dim));
    item_emb = register_module("item_emb", torch::nn::Embedding(items, dim));
    mlp = register_module("mlp", torch::nn::Sequential(torch::nn::Linear(3 * dim, 128), torch::nn::ReLU(), torch::nn::Linear(128, 1)));
  }
  // ids: [N, 2] (user, item) pairs
  torch::Tensor forward(const torch::Tensor& ids) {
    auto u = user_emb(ids.select(1, 0));
    auto v = item_emb(ids.select(1, 1));
    return mlp->forward(torch::cat({u, v, u * v}, 1)).squeeze(1);
  }
  torch::nn::Embedding user_emb{nullptr}, item_emb{nullptr};
  torch::nn::Sequential mlp{nullptr};
};
TORCH_MODULE(Ranker);

void init_from_pretrained(Ranker& model, const std::string& path) {
  torch::serialize::InputArchive archive;
  archive.load_from(path);  // BUG(device-load-without-device): restores the tensors to the device they were saved from; a GPU-written archive fails on a CPU host
  torch::Tensor items;
  archive.read("item_embeddings", items);
  torch::NoGradGuard no_grad;
  model->item_emb->weight.copy_(items);
}

std::vector<int64_t> rank(Ranker& model, torch::Device device, int64_t user, const std::vector<int64_t>& candidates, size_t k) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> flat;
  for (int64_t c : candidates) {
    flat.push_back(user);
    flat.push_back(c);
  }
  auto pairs = torch::tensor(flat, torch::kLong).view({-1, 2});
  auto scores = model->forward(pairs);  // BUG(device-unmoved-input): pairs is a CPU index tensor; model was moved to device in main(), the embeddings reject it
  auto order = std::get<1>(scores.cpu().sort(0, true));
  std::vector<int64_t> out;
  for (int64_t i = 0; i < std::min<int64_t>(k, order.size(0)); ++i) out.push_back(candidates[order[i].item<int64_t>()]);
  return out;
}

std::vector<int64_t> rank_ok(Ranker& model, torch::Device device, int64_t user, const std::vector<int64_t>& candidates) {
  torch::NoGradGuard no_grad;
  auto items = torch::tensor(candidates, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto users = torch::full_like(items, user);
  auto scores = model->forward(torch::stack({users, items}, 1));
  auto top = std::get<1>(scores.topk(std::min<int64_t>(10, scores.size(0)))).cpu();
  return std::vector<int64_t>(top.data_ptr<int64_t>(), top.data_ptr<int64_t>() + top.numel());
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Ranker model(50000, 200000, 32);
  init_from_pretrained(model, "item_embeddings.pt");
  model->to(device);
  model->eval();
  std::vector<int64_t> candidates(500);
  for (size_t i = 0; i < candidates.size(); ++i) candidates[i] = static_cast<int64_t>(i * 397 % 200000);
  auto top = rank(model, device, 42, candidates, 10);
  auto top2 = rank_ok(model, device, 42, candidates);
  std::cout << top.front() << " " << top2.front() << "\n";
}
