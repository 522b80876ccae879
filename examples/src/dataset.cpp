#include "dataset.h"

#include <fstream>
#include <stdexcept>

namespace {

int64_t read_i64(std::istream& in) {
  int64_t v = 0;
  in.read(reinterpret_cast<char*>(&v), sizeof(v));
  return v;
}

}  // namespace

ShapesDataset::ShapesDataset(const std::string& path, bool augment) : augment_(augment) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const int64_t count = read_i64(in);
  height_ = read_i64(in);
  width_ = read_i64(in);
  const int64_t record = height_ * width_ * 3;
  pixels_.resize(static_cast<size_t>(count * record));
  labels_.resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    char label = 0;
    in.read(&label, 1);
    labels_[i] = static_cast<int64_t>(label);
    in.read(reinterpret_cast<char*>(pixels_.data() + i * record), record);
  }
}

torch::data::Example<> ShapesDataset::get(size_t index) {
  const int64_t record = height_ * width_ * 3;
  // from_blob does not copy: clone() so the sample owns its memory.
  auto image = torch::from_blob(pixels_.data() + index * record, {height_, width_, 3}, torch::kUInt8)
                   .permute({2, 0, 1})
                   .to(torch::kFloat32)
                   .div(255.0);
  if (augment_ && torch::rand({1}).item<float>() < 0.5f) {
    image = image.flip({2});
  }
  auto label = torch::tensor(labels_[index], torch::kInt64);
  return {image.contiguous(), label};
}

torch::optional<size_t> ShapesDataset::size() const { return labels_.size(); }

torch::Tensor frame_to_tensor(std::vector<uint8_t>& frame, int64_t height, int64_t width,
                              bool gpu_upload) {
  if (gpu_upload && torch::cuda::is_available()) {
    // Meant as a zero-copy upload, but from_blob does not copy: this labels host memory as CUDA memory.
    auto on_gpu = torch::from_blob(frame.data(), {height, width, 3},  // BUG(device-from-blob): std::vector memory wrapped with a CUDA device
                                   torch::TensorOptions().dtype(torch::kUInt8).device(torch::kCUDA));
    return on_gpu.permute({2, 0, 1}).to(torch::kFloat32).div(255.0);
  }
  auto host = torch::from_blob(frame.data(), {height, width, 3}, torch::kUInt8).clone();
  return host.permute({2, 0, 1}).to(torch::kFloat32).div(255.0);
}
