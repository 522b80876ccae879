#pragma once

#include "model.h"

#include <torch/script.h>

#include <string>

std::string checkpoint_path(const std::string& dir, int64_t epoch, const std::string& what);

void save_checkpoint(ShapesNet& model, torch::optim::Optimizer& optimizer, const std::string& dir,
                     int64_t epoch);

// Continues a run: the model is already built; weights and optimizer state come from `dir`.
void resume(ShapesNet& model, torch::optim::Optimizer& optimizer, const std::string& dir,
            int64_t epoch, torch::Device device);

ShapesNet load_for_inference(const std::string& path, const ShapesNetOptions& opts,
                             torch::Device device);

// TorchScript teacher for distillation, and the traced student used by the server.
torch::jit::Module load_teacher(const std::string& path);
torch::jit::Module load_traced(const std::string& path, torch::Device device);

// Writes a CPU copy of the weights for the model zoo.
void export_cpu_weights(ShapesNet& model, const std::string& path);
