// Trains the translator on a toy parallel corpus; validation token accuracy and a greedy sample per epoch.
#include <iostream>
#include <string>
#include <vector>

#include "s2s_data.h"
#include "s2s_eval.h"
#include "s2s_model.h"

using Corpus = std::vector<std::vector<std::string>>;

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Corpus src = {{"ein", "kleiner", "test"}, {"das", "haus", "ist", "gross"}, {"guten", "morgen"}};
  Corpus tgt = {{"a", "small", "test"}, {"the", "house", "is", "big"}, {"good", "morning"}};
  auto sv = build_vocab(src, 1), tv = build_vocab(tgt, 1);

  Translator model(sv.size(), tv.size());
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(5e-4).betas({0.9, 0.98}));
  auto weights = frequency_weights(tv);
  auto ce = torch::nn::functional::CrossEntropyFuncOptions().weight(weights).ignore_index(kPad).label_smoothing(0.1);

  std::vector<PairBatch> train_batches, val_batches;
  for (int i = 0; i < 50; ++i) train_batches.push_back(make_batch(sv, tv, src, tgt));
  val_batches.push_back(make_batch(sv, tv, src, tgt));
  auto lens = mean_lengths(train_batches);
  std::cout << "mean lengths " << lens.first << " / " << lens.second << "\n";

  for (int epoch = 0; epoch < 30; ++epoch) {
    model->train();
    for (const auto& batch : train_batches) {
      auto s = batch.src.to(device);
      auto t = batch.tgt.to(device);
      auto tgt_in = t.narrow(1, 0, t.size(1) - 1), tgt_out = t.narrow(1, 1, t.size(1) - 1);
      auto logits = model->forward(s, tgt_in);
      auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, tv.size()}), tgt_out.reshape({-1}), ce);
      opt.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      opt.step();
    }

    torch::NoGradGuard no_grad;
    model->eval();
    int64_t hits = 0, tokens = 0;
    for (const auto& batch : val_batches) {
      auto s = batch.src.to(device);
      auto t_in = batch.tgt.narrow(1, 0, batch.tgt.size(1) - 1).to(device);
      auto pred = model->forward(s, t_in).argmax(-1);
      auto gold = batch.tgt.narrow(1, 1, batch.tgt.size(1) - 1);
      auto valid = gold.ne(kPad);
      hits += pred.eq(gold).logical_and(valid).sum().item<int64_t>();  // BUG(device-unmoved-target): gold comes from the CPU batch; pred is on device
      tokens += valid.sum().item<int64_t>();
    }
    auto sample = model->greedy_decode(val_batches[0].src.to(device), 6);
    std::cout << "epoch " << epoch << " val acc " << double(hits) / std::max<int64_t>(tokens, 1) << " ppl "
              << perplexity(model, val_batches) << " sample len " << sample.size(1) << "\n";
  }
  torch::save(model, "translator.pt");
}
