// ShapesDataset: fixed-size RGB images stored in one raw file
// (header: count, height, width; then per record one label byte and H*W*3 pixel bytes).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

class ShapesDataset : public torch::data::datasets::Dataset<ShapesDataset> {
 public:
  explicit ShapesDataset(const std::string& path, bool augment = false);

  torch::data::Example<> get(size_t index) override;
  torch::optional<size_t> size() const override;

  int64_t height() const { return height_; }
  int64_t width() const { return width_; }

 private:
  int64_t height_ = 0;
  int64_t width_ = 0;
  bool augment_ = false;
  std::vector<uint8_t> pixels_;
  std::vector<int64_t> labels_;
};

// Decodes one packed HWC uint8 frame (a camera/video frame) into a CHW float tensor in [0, 1].
torch::Tensor frame_to_tensor(std::vector<uint8_t>& frame, int64_t height, int64_t width,
                              bool gpu_upload);
