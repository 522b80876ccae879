// vae: synthetic 8x8 images with a class label, and an image writer.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

namespace vx {

struct Batch {
  torch::Tensor x;  // (N, 64) in [0, 1]
  torch::Tensor y;  // (N) int64 class
};

std::vector<Batch> make_batches(int64_t count, int64_t batch_size);
// Moves the images and the labels of `batch` to `device`.
void to_device(Batch& batch, torch::Device device);
// Writes (N, 8, 8) images in [0, 1] as one PGM strip.
void write_pgm(const torch::Tensor& images, const std::string& path);

}  // namespace vx
