// segnet: weighted cross-entropy + soft Dice for training, confusion matrix and mIoU for evaluation.
#include "sgm_losses.h"

namespace sgm {

torch::Tensor class_weights(int64_t num_classes) {
  auto w = torch::ones({num_classes});  // BUG(device-factory-without-device): returned to sgm_train.cpp, which passes it as the weight of cross_entropy over logits on the device
  w[0] = 0.25;
  return w;
}

torch::Tensor dice_loss(const torch::Tensor& logits, const torch::Tensor& target, int64_t num_classes) {
  auto probs = torch::softmax(logits, 1);
  auto onehot = torch::one_hot(target, num_classes).permute({0, 3, 1, 2}).to(probs.dtype());
  auto inter = (probs * onehot).sum({0, 2, 3});
  auto denom = probs.sum({0, 2, 3}) + onehot.sum({0, 2, 3});
  return 1 - ((2 * inter + 1) / (denom + 1)).mean();
}

torch::Tensor confusion_matrix(const torch::Tensor& pred, const torch::Tensor& target, int64_t num_classes) {
  auto idx = target.flatten() * num_classes + pred.flatten();
  return torch::bincount(idx, {}, num_classes * num_classes).view({num_classes, num_classes});
}

double mean_iou(const torch::Tensor& confusion) {
  auto cm = confusion.accessor<int64_t, 2>();
  double sum = 0;
  int64_t present = 0;
  for (int64_t c = 0; c < cm.size(0); ++c) {
    int64_t row = 0, col = 0;
    for (int64_t k = 0; k < cm.size(0); ++k) row += cm[c][k], col += cm[k][c];
    const int64_t uni = row + col - cm[c][c];
    if (uni > 0) sum += static_cast<double>(cm[c][c]) / uni, ++present;
  }
  return present ? sum / present : 0.0;
}

}  // namespace sgm
