// Warm-starting a recommender from earlier artefacts: a module checkpoint, a
// TorchScript re-ranker and an archive of embedding tables.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdio>
#include <string>

struct TwoTowerImpl : torch::nn::Module {
  TwoTowerImpl(int64_t users, int64_t items, int64_t dim) {
    user = register_module("user", torch::nn::Embedding(users, dim));
    item = register_module("item", torch::nn::Embedding(items, dim));
  }
  torch::Tensor forward(const torch::Tensor& u, const torch::Tensor& i) {
    return (user->forward(u) * item->forward(i)).sum(-1);
  }
  torch::nn::Embedding user{nullptr}, item{nullptr};
};
TORCH_MODULE(TwoTower);

static void load_weights(TwoTower& model, const std::string& path) {
  torch::load(model, path);  // BUG(device-load-without-device): main() has already moved the model; the weights go back to the device they were saved from (and a GPU-saved file fails on a CPU-only host)
}

class Reranker {
 public:
  Reranker(const std::string& path, torch::Device device) : device_(device) {
    module_ = torch::jit::load(path);  // BUG(device-load-without-device): the scripted model is restored where it was exported; score() feeds it tensors on device_
    module_.eval();
  }
  torch::Tensor score(const torch::Tensor& feats) {
    torch::NoGradGuard no_grad;
    return module_.forward({feats.to(device_)}).toTensor();
  }

 private:
  torch::Device device_;
  torch::jit::script::Module module_;
};

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "artefacts";
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  TwoTower model(100000, 50000, 64);
  model->to(device);
  load_weights(model, dir + "/two_tower.pt");

  torch::serialize::InputArchive tables;
  tables.load_from(dir + "/item_tables.pt");  // BUG(device-load-without-device): the archive's tensors come back on the saving device; the popularity prior below is added to device scores
  torch::Tensor popularity;
  tables.read("popularity", popularity);

  torch::serialize::InputArchive stats;
  stats.load_from(dir + "/calibration.pt", device);  // with a device: fine
  torch::Tensor bias;
  stats.read("bias", bias);

  Reranker reranker(dir + "/reranker.pt", device);
  torch::NoGradGuard no_grad;
  auto users = torch::randint(0, 100000, {1024}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto items = torch::randint(0, 50000, {1024}, users.options());
  auto scores = model->forward(users, items) + popularity.index_select(0, items) + bias;
  auto reranked = reranker.score(torch::stack({scores, scores.sigmoid()}, 1));
  std::printf("mean reranked score %.4f\n", reranked.mean().item<float>());
}
