// Classifies every tensor file listed in a manifest with an exported TorchScript
// ResNet: `classify model.pt manifest.txt [cuda|cpu]`. Prints the top-5 per image.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

static std::vector<std::string> read_manifest(const std::string& path) {
  std::vector<std::string> files;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.size() > 3 && line.compare(line.size() - 3, 3, ".pt") == 0) files.push_back(line);
  return files;
}

static torch::Tensor load_image(const std::string& file) {
  torch::Tensor img;  // saved as uint8 [3,H,W]
  torch::load(img, file, torch::Device(torch::kCPU));
  auto x = img.to(torch::kFloat).div_(255.0);
  x = torch::nn::functional::interpolate(
      x.unsqueeze(0), torch::nn::functional::InterpolateFuncOptions().size(std::vector<int64_t>{224, 224})
                          .mode(torch::kBilinear).align_corners(false));
  return x.squeeze(0);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: classify model.pt manifest.txt [cuda|cpu]\n");
    return 2;
  }
  const std::string want = argc > 3 ? argv[3] : "cuda";
  const bool use_cuda = want == "cuda" && torch::cuda::is_available();
  const torch::Device device = use_cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  torch::jit::script::Module net = torch::jit::load(argv[1], device);
  net.eval();
  const auto opts = torch::TensorOptions().device(device);
  const auto mean = torch::tensor({0.485f, 0.456f, 0.406f}, opts).view({1, 3, 1, 1});
  const auto stdev = torch::tensor({0.229f, 0.224f, 0.225f}, opts).view({1, 3, 1, 1});

  const auto files = read_manifest(argv[2]);
  const size_t batch = 32;
  std::vector<torch::Tensor> top_idx, top_p;
  for (size_t i = 0; i < files.size(); i += batch) {
    std::vector<torch::Tensor> imgs;
    for (size_t j = i; j < std::min(files.size(), i + batch); ++j) imgs.push_back(load_image(files[j]));
    auto x = (torch::stack(imgs).to(device) - mean) / stdev;
    auto logits = net.forward({x}).toTensor();  // BUG(training-inference-without-no-grad): a TorchScript model in eval() still records autograd for its requires_grad parameters: no NoGradGuard/InferenceMode around this loop, and top_p keeps every graph alive
    auto [p, idx] = torch::softmax(logits, 1).topk(5, 1);
    top_p.push_back(p);
    top_idx.push_back(idx);
  }
  if (top_p.empty()) return 0;
  auto all_p = torch::cat(top_p).cpu();  // one host copy after the loop
  auto all_idx = torch::cat(top_idx).cpu();
  auto p_acc = all_p.accessor<float, 2>();
  auto i_acc = all_idx.accessor<int64_t, 2>();
  for (int64_t r = 0; r < all_p.size(0); ++r) {
    std::printf("%s", files[r].c_str());
    for (int k = 0; k < 5; ++k) std::printf("  %lld:%.3f", static_cast<long long>(i_acc[r][k]), p_acc[r][k]);
    std::printf("\n");
  }
}
