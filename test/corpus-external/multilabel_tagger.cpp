// Multi-label image tagging (e.g. 20 attribute tags per photo) with BCE-with-logits and mAP-ish metrics.
#include <torch/torch.h>

#include <iostream>

class TagDataset : public torch::data::datasets::Dataset<TagDataset> {
 public:
  explicit TagDataset(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t i) override {
    auto img = torch::rand({3, 64, 64});
    auto tags = (torch::rand({20}) < 0.15).to(torch::kFloat);
    tags[static_cast<int64_t>(i % 20)] = 1.0;
    return {img, tags};
  }
  torch::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

struct TaggerImpl : torch::nn::Module {
  TaggerImpl() {
    features = register_module("features", torch::nn::Sequential(
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU(),
                                               torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten()));
    logits = register_module("logits", torch::nn::Linear(64, 20));
  }
  torch::Tensor forward(const torch::Tensor& x) { return logits(features->forward(x)); }
  torch::nn::Sequential features{nullptr};
  torch::nn::Linear logits{nullptr};
};
TORCH_MODULE(Tagger);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Tagger model;
  model->to(device);
  auto pos_weight = torch::full({20}, 3.0, torch::device(device));
  torch::nn::BCEWithLogitsLoss criterion(torch::nn::BCEWithLogitsLossOptions().pos_weight(pos_weight));
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto loader = torch::data::make_data_loader(TagDataset(4096).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(64).workers(4));

  for (int epoch = 0; epoch < 10; ++epoch) {
    double total = 0;
    int64_t tp = 0, predicted = 0, actual = 0;
    for (auto& batch : *loader) {
      auto images = batch.data.to(device);
      auto target = batch.target;
      auto out = model->forward(images);
      auto loss = criterion(out, target);  // BUG(device-unmoved-target): target is a copy of the CPU batch field; out is on device
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.item<double>();

      auto pred = out.detach().sigmoid().gt(0.5).cpu();
      auto truth = target.gt(0.5);
      tp += pred.logical_and(truth).sum().item<int64_t>();
      predicted += pred.sum().item<int64_t>();
      actual += truth.sum().item<int64_t>();
    }
    std::cout << "epoch " << epoch << " loss " << total << " precision " << double(tp) / std::max<int64_t>(predicted, 1)
              << " recall " << double(tp) / std::max<int64_t>(actual, 1) << "\n";
  }
}
