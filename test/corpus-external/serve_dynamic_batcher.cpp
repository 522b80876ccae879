// Dynamic batching server core for a TorchScript text-embedding model. Device handling done right.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

struct Request {
  std::vector<int64_t> token_ids;
};

class EmbeddingServer {
 public:
  EmbeddingServer(const std::string& path, torch::Device device, int64_t max_len)
      : device_(device), max_len_(max_len), module_(torch::jit::load(path, device)) {
    module_.eval();
    staging_ = torch::zeros({64, max_len}, torch::kLong);
    if (device_.is_cuda()) staging_ = staging_.pin_memory();
  }

  std::vector<std::vector<float>> embed(const std::vector<Request>& batch) {
    torch::InferenceMode guard;
    const int64_t B = static_cast<int64_t>(batch.size());
    auto ids_host = staging_.narrow(0, 0, B);
    ids_host.zero_();
    std::vector<int64_t> lengths;
    for (int64_t i = 0; i < B; ++i) {
      const auto& toks = batch[i].token_ids;
      const int64_t n = std::min<int64_t>(toks.size(), max_len_);
      auto row = torch::from_blob(const_cast<int64_t*>(toks.data()), {n}, torch::kLong);
      ids_host[i].narrow(0, 0, n).copy_(row);
      lengths.push_back(n);
    }
    std::map<std::string, torch::Tensor> inputs;
    inputs["input_ids"] = ids_host;
    inputs["attention_mask"] = ids_host.ne(0).to(torch::kLong);
    for (auto& kv : inputs) kv.second = kv.second.to(device_, /*non_blocking=*/true);

    auto out = module_.forward({inputs["input_ids"], inputs["attention_mask"]}).toTensor();
    auto mask = inputs["attention_mask"].unsqueeze(-1).to(out.scalar_type());
    auto pooled = (out * mask).sum(1) / mask.sum(1).clamp_min(1.0);
    auto host = pooled.to(torch::kCPU).contiguous();
    const float* p = host.data_ptr<float>();
    const int64_t D = host.size(1);
    std::vector<std::vector<float>> result(B, std::vector<float>(D));
    for (int64_t i = 0; i < B; ++i) std::memcpy(result[i].data(), p + i * D, D * sizeof(float));
    return result;
  }

  // zero-copy view over a tensor's own memory, with its own options
  torch::Tensor view_of(const torch::Tensor& t) const { return torch::from_blob(t.data_ptr(), t.sizes(), t.options()); }

 private:
  torch::Device device_;
  int64_t max_len_;
  torch::jit::script::Module module_;
  torch::Tensor staging_;
};

int main(int argc, char** argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  EmbeddingServer server(argc > 1 ? argv[1] : "encoder.pt", device, 128);
  std::vector<Request> batch = {{{101, 7592, 2088, 102}}, {{101, 2023, 2003, 1037, 3231, 102}}};
  auto emb = server.embed(batch);
  std::cout << emb.size() << " embeddings of size " << emb[0].size() << "\n";
}
