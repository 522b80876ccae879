// GRU encoder-decoder for a toy "reverse the sequence" task, with separate optimizers
// for the encoder and the decoder (different learning rates), teacher forcing, and a
// greedy translate() for the report.
#include <torch/torch.h>

#include <cstdio>

constexpr int64_t kVocab = 32, kBos = 1, kHidden = 256;

struct EncoderImpl : torch::nn::Module {
  EncoderImpl() {
    emb = register_module("emb", torch::nn::Embedding(kVocab, kHidden));
    rnn = register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(kHidden, kHidden).batch_first(true)));
  }
  torch::Tensor forward(const torch::Tensor& src) { return std::get<1>(rnn->forward(emb->forward(src))); }
  torch::nn::Embedding emb{nullptr};
  torch::nn::GRU rnn{nullptr};
};
TORCH_MODULE(Encoder);

struct DecoderImpl : torch::nn::Module {
  DecoderImpl() {
    emb = register_module("emb", torch::nn::Embedding(kVocab, kHidden));
    rnn = register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(kHidden, kHidden).batch_first(true)));
    out = register_module("out", torch::nn::Linear(kHidden, kVocab));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& tokens, const torch::Tensor& h) {
    auto [y, h_next] = rnn->forward(emb->forward(tokens), h);
    return {out->forward(y), h_next};
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::GRU rnn{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Decoder);

static torch::Tensor translate(Encoder& enc, Decoder& dec, const torch::Tensor& src, int64_t max_len) {
  torch::NoGradGuard no_grad;  // decoding only
  enc->eval();
  dec->eval();
  auto h = enc->forward(src);
  auto tok = torch::full({src.size(0), 1}, kBos, src.options());
  std::vector<torch::Tensor> out;
  for (int64_t t = 0; t < max_len; ++t) {
    auto [logits, h_next] = dec->forward(tok, h);
    h = h_next;
    tok = logits.argmax(-1);
    out.push_back(tok);
  }
  enc->train();
  dec->train();
  return torch::cat(out, 1);
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  Encoder enc;
  Decoder dec;
  enc->to(device);
  dec->to(device);
  torch::optim::Adam enc_opt(enc->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::Adam dec_opt(dec->parameters(), torch::optim::AdamOptions(3e-3));
  const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(device);

  for (int64_t it = 0; it < 10000; ++it) {
    auto src = torch::randint(2, kVocab, {64, 12}, long_opts);
    auto tgt = src.flip({1});
    auto dec_in = torch::cat({torch::full({64, 1}, kBos, long_opts), tgt.slice(1, 0, -1)}, 1);  // teacher forcing

    enc_opt.zero_grad();
    auto h = enc->forward(src);
    auto [logits, h_last] = dec->forward(dec_in, h);
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, kVocab}), tgt.reshape({-1}));
    loss.backward();
    torch::nn::utils::clip_grad_norm_(enc->parameters(), 1.0);
    torch::nn::utils::clip_grad_norm_(dec->parameters(), 1.0);
    enc_opt.step();
    dec_opt.step();  // BUG(training-missing-zero-grad): only enc_opt is zeroed: the decoder's gradients keep summing over all iterations (and the clipping above then shrinks ever larger sums)

    if (it % 1000 == 0) {
      auto probe = torch::randint(2, kVocab, {256, 12}, long_opts);
      auto acc = translate(enc, dec, probe, 12).eq(probe.flip({1})).to(torch::kFloat).mean();
      std::printf("it %lld  loss %.4f  seq acc %.3f\n", static_cast<long long>(it), loss.item<float>(), acc.item<float>());
    }
  }
}
