#pragma once

#include "model.h"

#include <string>

struct EvalResult {
  double accuracy = 0.0;
  torch::Tensor predictions;      // [N] class indices
  torch::Tensor confusion;        // [C, C] int64 counts (rows: truth, cols: prediction), CPU
  torch::Tensor confidence_hist;  // [10] counts of top-1 confidence, CPU
};

EvalResult evaluate(ShapesNet& model, const std::string& data_path, torch::Device device,
                    int64_t batch_size);

double benchmark_latency(ShapesNet& model, int64_t iters);
