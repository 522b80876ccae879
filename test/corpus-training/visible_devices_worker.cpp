// Inference worker, one process per GPU, for launchers that do not isolate devices:
// the worker restricts itself to its own GPU by setting CUDA_VISIBLE_DEVICES from its
// local rank before the CUDA runtime starts, so "cuda" afterwards means that GPU.
//
//   LOCAL_RANK=3 ./embed_worker --count 200000
//
// writes embeddings_3.pt (float32, [count, 256], L2-normalised rows).
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct EmbedderImpl : torch::nn::Module {
  EmbedderImpl() {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(512, 512), torch::nn::GELU(),
                                                       torch::nn::LayerNorm(torch::nn::LayerNormOptions({512})),
                                                       torch::nn::Linear(512, 256)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return torch::nn::functional::normalize(net->forward(x)); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(Embedder);

static int64_t parse_count(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--count") return std::atoll(argv[i + 1]);
  return 100000;
}

int main(int argc, char** argv) {
  const char* lr = std::getenv("LOCAL_RANK");
  const int local_rank = lr ? std::atoi(lr) : 0;
  const int64_t n = parse_count(argc, argv);
  // Must happen before the first CUDA call of the process.
  setenv("CUDA_VISIBLE_DEVICES", std::to_string(local_rank).c_str(), /*overwrite=*/1);

  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  Embedder model;
  torch::load(model, "embedder.pt", device);
  model->eval();

  std::vector<torch::Tensor> chunks;
  {
    torch::NoGradGuard no_grad;
    auto inputs = torch::randn({n, 512}, torch::TensorOptions().device(device));
    for (int64_t i = 0; i < n; i += 8192) chunks.push_back(model->forward(inputs.narrow(0, i, std::min<int64_t>(8192, n - i))));
  }
  // Sanity check on the device: each of the first 64 embeddings is its own nearest neighbour.
  {
    torch::NoGradGuard no_grad;
    auto all = torch::cat(chunks);
    auto queries = all.narrow(0, 0, 64);
    auto nn = queries.matmul(all.t()).argmax(1);
    auto self_hits = nn.eq(torch::arange(64, nn.options())).sum();
    TORCH_CHECK(self_hits.item<int64_t>() == 64, "embeddings are degenerate");
  }
  auto embeddings = torch::cat(chunks).to(torch::kCPU);
  torch::save(embeddings, "embeddings_" + std::to_string(local_rank) + ".pt");
  std::printf("local rank %d wrote %lld embeddings\n", local_rank, static_cast<long long>(embeddings.size(0)));
}
