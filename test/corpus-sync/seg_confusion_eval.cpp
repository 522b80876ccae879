// Semantic segmentation evaluation: predictions kept for a confusion matrix computed after the
// loop, a per-batch host confusion matrix, and hard-example mining on the per-batch IoU.
#include <torch/torch.h>

#include <iostream>
#include <vector>

const int64_t kClasses = 6;

struct SegNetImpl : torch::nn::Module {
  SegNetImpl()
      : enc(register_module("enc", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)))),
        mid(register_module("mid", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)))),
        cls(register_module("cls", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, kClasses, 1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return cls(torch::relu(mid(torch::relu(enc(x))))); }
  torch::nn::Conv2d enc, mid, cls;
};
TORCH_MODULE(SegNet);

struct Sample {
  torch::Tensor image;  // 1x3xHxW, CPU (as loaded)
  torch::Tensor mask;   // HxW int64, CPU (as loaded), never moved in this program
};

std::vector<Sample> load_split(int n) {
  std::vector<Sample> out;
  for (int i = 0; i < n; ++i) out.push_back({torch::rand({1, 3, 64, 64}), torch::randint(0, kClasses, {64, 64})});
  return out;
}

// Collects every prediction; the confusion matrix is computed on the host once the loop is done.
std::vector<std::vector<int64_t>> confusion_after_loop(SegNet& net, const std::vector<Sample>& data,
                                                       const torch::Device& device) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> preds;
  for (const auto& s : data) {
    auto logits = net->forward(s.image.to(device));
    preds.push_back(logits.argmax(1).squeeze(0).to(torch::kCPU));  // BUG(device-sync-in-loop): avoidable: per-batch copies collected for after the loop
  }
  std::vector<std::vector<int64_t>> conf(kClasses, std::vector<int64_t>(kClasses, 0));
  for (size_t i = 0; i < preds.size(); ++i) {
    auto p = preds[i].contiguous();
    auto t = data[i].mask.contiguous();
    const int64_t* pp = p.data_ptr<int64_t>();  // SYNC(cpu): preds holds host copies
    const int64_t* tp = t.data_ptr<int64_t>();  // SYNC(cpu): masks were loaded on the CPU and never moved
    for (int64_t j = 0; j < p.numel(); ++j) ++conf[tp[j]][pp[j]];
  }
  return conf;
}

// The same matrix, filled batch by batch from a host copy of each prediction.
std::vector<std::vector<int64_t>> confusion_per_batch(SegNet& net, const std::vector<Sample>& data,
                                                      const torch::Device& device) {
  torch::NoGradGuard no_grad;
  std::vector<std::vector<int64_t>> conf(kClasses, std::vector<int64_t>(kClasses, 0));
  for (const auto& s : data) {
    auto pred = net->forward(s.image.to(device)).argmax(1).squeeze(0);
    // Hard case: the values index a host array, but only an accumulator that nobody reads before
    // the loop ends; torch::bincount(target * C + pred) on the device and one read would do.
    auto p = pred.cpu().contiguous();  // BUG(device-sync-in-loop): avoidable: indexes a host accumulator read only after the loop
    auto pa = p.accessor<int64_t, 2>();  // SYNC(cpu): reads the host copy made on the line above
    auto ta = s.mask.accessor<int64_t, 2>();  // SYNC(cpu): the mask was loaded on the CPU and never moved
    for (int64_t y = 0; y < pa.size(0); ++y)
      for (int64_t x = 0; x < pa.size(1); ++x) ++conf[ta[y][x]][pa[y][x]];
  }
  return conf;
}

// Hard-example mining: samples whose IoU on class 1 is low go to a list written after the loop.
std::vector<size_t> mine_hard_examples(SegNet& net, const std::vector<Sample>& data,
                                       const torch::Device& device) {
  torch::NoGradGuard no_grad;
  std::vector<size_t> hard;
  for (size_t i = 0; i < data.size(); ++i) {
    auto pred = net->forward(data[i].image.to(device)).argmax(1).squeeze(0) == 1;
    auto gt = data[i].mask.to(device) == 1;
    auto iou = (pred & gt).sum().to(torch::kFloat) / ((pred | gt).sum().to(torch::kFloat) + 1e-6);
    // Hard case: an `if`, but the branch only records an index into a list nobody reads until
    // the loop is over; the IoUs could be stacked on the device and thresholded once.
    if (iou.item<float>() < 0.3f) hard.push_back(i);  // BUG(device-sync-in-loop): avoidable: the branch only feeds a list used after the loop
  }
  return hard;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  SegNet net;
  net->to(device);
  net->eval();
  auto val = load_split(40);
  auto conf = confusion_after_loop(net, val, device);
  auto conf2 = confusion_per_batch(net, val, device);
  for (int64_t c = 0; c < kClasses; ++c) {
    int64_t inter = conf[c][c], uni = -conf[c][c];
    for (int64_t k = 0; k < kClasses; ++k) uni += conf[c][k] + conf[k][c];
    std::cout << "class " << c << " IoU " << static_cast<double>(inter) / std::max<int64_t>(1, uni)
              << (conf2[c][c] == conf[c][c] ? "" : " (mismatch)") << '\n';
  }
  auto hard = mine_hard_examples(net, val, device);
  std::cout << hard.size() << " hard examples\n";
  return 0;
}
