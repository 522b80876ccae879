// Writes evaluation artefacts of a retrieval model: raw similarity scores to a binary
// file and a confusion matrix as text. The writers read tensor memory directly.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <string>

static void write_scores(const torch::Tensor& scores, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  const float* p = scores.data_ptr<float>();  // BUG(device-host-access): main() passes the similarity matrix straight from the device: the host dereferences device memory
  out.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(scores.numel() * sizeof(float)));
}

template <typename T>
static void print_matrix(const torch::Tensor& m, const char* title) {
  auto a = m.accessor<T, 2>();  // BUG(device-host-access): called with the device confusion matrix below
  std::printf("%s\n", title);
  for (int64_t i = 0; i < a.size(0); ++i) {
    for (int64_t j = 0; j < a.size(1); ++j) std::printf("%8lld", static_cast<long long>(a[i][j]));
    std::printf("\n");
  }
}

// Reads a histogram that its only caller builds on the CPU.
static void print_histogram(const torch::Tensor& hist) {
  auto h = hist.accessor<float, 1>();
  for (int64_t i = 0; i < h.size(0); ++i) std::printf("bin %2lld: %.0f\n", static_cast<long long>(i), h[i]);
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto encoder = torch::nn::Sequential(torch::nn::Linear(300, 256), torch::nn::ReLU(), torch::nn::Linear(256, 128));
  encoder->to(device);
  encoder->eval();
  torch::NoGradGuard no_grad;

  const auto opts = torch::TensorOptions().device(device);
  auto queries = torch::nn::functional::normalize(encoder->forward(torch::randn({512, 300}, opts)),
                                                  torch::nn::functional::NormalizeFuncOptions().dim(1));
  auto docs = torch::nn::functional::normalize(encoder->forward(torch::randn({2048, 300}, opts)),
                                               torch::nn::functional::NormalizeFuncOptions().dim(1));
  auto sim = queries.matmul(docs.t()).contiguous();
  write_scores(sim, "similarities.f32");

  auto q_class = torch::randint(0, 5, {512}, opts.dtype(torch::kLong));
  auto d_class = torch::randint(0, 5, {2048}, opts.dtype(torch::kLong));
  auto top1 = d_class.index_select(0, sim.argmax(1));
  auto confusion = torch::zeros({5, 5}, opts.dtype(torch::kLong));
  confusion.index_put_({q_class, top1}, torch::ones_like(q_class), /*accumulate=*/true);
  print_matrix<int64_t>(confusion, "query class x retrieved class");

  auto best = std::get<0>(sim.max(1)).to(torch::kCPU);
  print_histogram(torch::histc(best, 10, -1, 1));
  auto host_sim = sim.cpu();
  write_scores(host_sim.slice(0, 0, 8).contiguous(), "similarities_head.f32");  // a host copy: fine
}
