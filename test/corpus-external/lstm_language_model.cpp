// Word-level LSTM language model with truncated BPTT (PTB-style batching).
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <tuple>
#include <vector>

using Hidden = std::tuple<torch::Tensor, torch::Tensor>;

class RNNLMImpl : public torch::nn::Module {
 public:
  RNNLMImpl(int64_t vocab, int64_t emb, int64_t hidden, int64_t layers)
      : hidden_(hidden), layers_(layers) {
    embed_ = register_module("embed", torch::nn::Embedding(vocab, emb));
    lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(emb, hidden).num_layers(layers).dropout(0.2)));
    decoder_ = register_module("decoder", torch::nn::Linear(hidden, vocab));
    drop_ = register_module("drop", torch::nn::Dropout(0.2));
  }

  Hidden init_hidden(int64_t batch) const {
    return {torch::zeros({layers_, batch, hidden_}), torch::zeros({layers_, batch, hidden_})};  // BUG(device-factory-without-device): CPU initial state; the moved LSTM rejects it next to device inputs
  }

  std::pair<torch::Tensor, Hidden> forward(const torch::Tensor& tokens, const Hidden& state) {
    auto x = drop_(embed_(tokens));
    auto out = lstm_->forward(x, state);
    auto y = decoder_(drop_(std::get<0>(out)));
    return {y, std::get<1>(out)};
  }

 private:
  int64_t hidden_, layers_;
  torch::nn::Embedding embed_{nullptr};
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::Linear decoder_{nullptr};
  torch::nn::Dropout drop_{nullptr};
};
TORCH_MODULE(RNNLM);

// Lay a flat token stream out as [T, B] columns.
torch::Tensor batchify(const std::vector<int64_t>& ids, int64_t batch) {
  const int64_t n = static_cast<int64_t>(ids.size()) / batch;
  return torch::tensor(ids).narrow(0, 0, n * batch).view({batch, n}).t().contiguous();
}

Hidden detach(const Hidden& h) { return {std::get<0>(h).detach(), std::get<1>(h).detach()}; }

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 10000, bptt = 35, batch = 20;
  std::vector<int64_t> corpus(200000);
  for (size_t i = 0; i < corpus.size(); ++i) corpus[i] = static_cast<int64_t>((i * 7919) % vocab);
  auto data = batchify(corpus, batch).to(device);

  RNNLM model(vocab, 400, 1150, 3);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(20.0));

  for (int epoch = 0; epoch < 5; ++epoch) {
    model->train();
    auto hidden = model->init_hidden(batch);
    double total = 0;
    int64_t chunks = 0;
    for (int64_t i = 0; i + 1 < data.size(0); i += bptt) {
      const int64_t len = std::min(bptt, data.size(0) - 1 - i);
      auto input = data.narrow(0, i, len);
      auto target = data.narrow(0, i + 1, len).reshape({-1});
      hidden = detach(hidden);
      auto out = model->forward(input, hidden);
      hidden = out.second;
      auto loss = torch::cross_entropy_loss(out.first.view({-1, vocab}), target);
      opt.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);
      opt.step();
      total += loss.item<double>();
      ++chunks;
    }
    std::cout << "epoch " << epoch << " ppl " << std::exp(total / chunks) << "\n";
  }
}
