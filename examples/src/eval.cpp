#include "eval.h"

#include "dataset.h"

#include <chrono>
#include <iostream>
#include <vector>

EvalResult evaluate(ShapesNet& model, const std::string& data_path, torch::Device device,
                    int64_t batch_size) {
  torch::NoGradGuard no_grad;
  model->eval();

  auto dataset = ShapesDataset(data_path).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(batch_size));

  const int64_t C = model->num_classes();
  EvalResult result;
  result.confusion = torch::zeros({C, C}, torch::kInt64);
  result.confidence_hist = torch::zeros({10}, torch::kInt64);
  auto confusion = result.confusion.accessor<int64_t, 2>();  // CPU tensor: fine
  auto hist = result.confidence_hist.accessor<int64_t, 1>();

  const bool on_gpu = device.str() == "cuda";  // BUG(device-string-compare): false for "cuda:1" (--device=cuda:1); use device.is_cuda()
  std::vector<torch::Tensor> all_preds;
  int64_t correct = 0;
  int64_t seen = 0;
  for (auto& batch : *loader) {
    auto labels = batch.target.to(device);

    // Test-time augmentation: average the original and the mirrored view.
    std::vector<torch::Tensor> views = {batch.data, batch.data.flip({3})};
    for (auto v : views) {
      v = v.to(device);  // BUG(device-loop-copy-to): v is a copy; the tensors in `views` stay on the CPU
    }
    torch::Tensor probs;
    for (const auto& v : views) {
      auto p = torch::softmax(model->predict(v), 1);
      probs = probs.defined() ? probs + p : p;
    }
    probs = probs / static_cast<double>(views.size());

    auto preds = probs.argmax(1);
    correct += preds.eq(labels).sum().item<int64_t>();  // BUG(device-sync-in-loop): works on a CUDA tensor, but waits for the GPU every batch

    const int64_t n = preds.size(0);
    const int64_t* pred_ptr = preds.data_ptr<int64_t>();  // BUG(device-host-access): preds lives on `device`; the host reads device memory
    auto labels_cpu = labels.cpu();
    const int64_t* label_ptr = labels_cpu.data_ptr<int64_t>();  // bound CPU copy: fine
    for (int64_t i = 0; i < n; ++i) confusion[label_ptr[i]][pred_ptr[i]] += 1;

    const float* top1 = std::get<0>(probs.max(1)).cpu().data_ptr<float>();  // BUG(device-host-access): the .cpu() copy is a temporary; top1 dangles when probs is on CUDA
    for (int64_t i = 0; i < n; ++i) hist[std::min<int64_t>(9, static_cast<int64_t>(top1[i] * 10))] += 1;

    preds.cpu();  // BUG(device-discarded-to): result dropped; preds stays on the GPU
    all_preds.push_back(preds);
    seen += n;
  }
  if (on_gpu) std::cout << "evaluated on GPU\n";

  result.accuracy = seen > 0 ? static_cast<double>(correct) / static_cast<double>(seen) : 0.0;
  result.predictions = torch::cat(all_preds);
  return result;
}

double benchmark_latency(ShapesNet& model, int64_t iters) {
  model->eval();
  model->to(torch::Device(torch::kCUDA, 1));  // BUG(device-hardcoded): literal cuda:1 deep in the code; ignores the configured device
  auto x = torch::randn({8, 3, 64, 64}, model->parameters().front().options());  // same device as the model
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iters; ++i) {
    auto logits = model->predict(x);  // no NoGradGuard/InferenceMode: autograd records every call, but predict()'s forward is in model.cpp, another translation unit, which training-inference-without-no-grad does not follow
  }
  torch::cuda::synchronize();
  std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count() / static_cast<double>(iters);
}
