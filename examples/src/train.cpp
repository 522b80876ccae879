#include "train.h"

#include "checkpoint.h"
#include "dataset.h"

#include <iostream>

void train(ShapesNet& model, const TrainConfig& cfg, torch::Device device) {
  auto dataset = ShapesDataset(cfg.data_path, /*augment=*/true).map(torch::data::transforms::Stack<>());
  const auto num_samples = static_cast<double>(dataset.size().value());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(cfg.batch_size).workers(2));

  model->to(device);  // Module::to moves in place: nothing to keep

  // Learnable softmax temperature (calibration), trained jointly with the network.
  auto log_temperature = torch::zeros({1}, torch::requires_grad());
  if (device.is_cuda()) {
    log_temperature = log_temperature.cuda();  // BUG(device-mid-graph-to): copying .cuda() of a requires_grad leaf gives a non-leaf; Adam below throws "can't optimize a non-leaf Tensor"
  }
  std::vector<torch::Tensor> params = model->parameters();
  params.push_back(log_temperature);
  torch::optim::Adam optimizer(params, torch::optim::AdamOptions(cfg.lr));

  // Classes excluded from training get a large negative logit.
  auto class_mask = torch::ones({model->num_classes()}, torch::kBool);
  for (auto c : cfg.ignored_classes) class_mask[c] = false;
  class_mask.to(device);  // BUG(device-discarded-to): Tensor::to returns the moved tensor; class_mask stays on the CPU

  for (int64_t epoch = 1; epoch <= cfg.epochs; ++epoch) {
    model->train();
    double epoch_loss = 0.0;
    for (auto& batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target;
      auto mask = class_mask.to(device);  // BUG(device-loop-invariant-to): class_mask never changes, yet it is copied host->device every step
      auto outs = model->forward(images);

      // Deep supervision: main head + auxiliary head.
      auto total = torch::zeros({1});  // BUG(device-factory-without-device): 1-dim CPU accumulator; `total +=` a CUDA loss throws
      for (size_t i = 0; i < outs.size(); ++i) {
        auto logits = outs[i].masked_fill(mask.logical_not(), -1e4) / log_temperature.exp();
        const double w = i == 0 ? 1.0 : cfg.aux_weight;
        total += w * torch::nll_loss(torch::log_softmax(logits, 1), labels);  // BUG(device-unmoved-target): images were moved to device, labels were not
      }

      optimizer.zero_grad();
      total.backward();
      optimizer.step();
      // Not a synchronisation yet: 'total' is on the CPU (line 40). Once it is
      // created on the device, device-sync-in-loop reports this item().
      epoch_loss += total.item<double>() * images.size(0);
    }
    std::cout << "epoch " << epoch << " loss " << epoch_loss / num_samples << '\n';
    save_checkpoint(model, optimizer, cfg.checkpoint_dir, epoch);
  }
}

void finetune_on_hard_examples(ShapesNet& model, std::vector<Batch> hard_batches,
                               torch::Device device, int64_t steps) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-3).momentum(0.9));

  for (auto& [x, y] : hard_batches) {  // by reference: the vector's elements are replaced
    x = x.to(device);
    y = y.to(device);
  }

  auto running = torch::zeros({});  // 0-dim: `running = running + loss` yields a tensor on the loss's device
  for (int64_t step = 0; step < steps; ++step) {
    for (const auto& [x, y] : hard_batches) {
      auto loss = torch::nll_loss(torch::log_softmax(model->predict(x), 1), y);
      loss.backward();
      optimizer.step();  // BUG(training-missing-zero-grad): gradients are never cleared (no zero_grad) and accumulate across steps
      running = running + loss.detach();
    }
  }
  const auto denom = static_cast<double>(steps * static_cast<int64_t>(hard_batches.size()));
  std::cout << "hard-example loss " << running.item<double>() / denom << '\n';
}
