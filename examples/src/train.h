#pragma once

#include "model.h"

#include <string>
#include <utility>
#include <vector>

struct TrainConfig {
  std::string data_path = "data/train.bin";
  std::string checkpoint_dir = "checkpoints";
  int64_t epochs = 10;
  int64_t batch_size = 64;
  double lr = 1e-3;
  double aux_weight = 0.4;
  std::vector<int64_t> ignored_classes;
};

void train(ShapesNet& model, const TrainConfig& cfg, torch::Device device);

// (images, labels) pairs, both on the CPU.
using Batch = std::pair<torch::Tensor, torch::Tensor>;

void finetune_on_hard_examples(ShapesNet& model, std::vector<Batch> hard_batches,
                               torch::Device device, int64_t steps);
