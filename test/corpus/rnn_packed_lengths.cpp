// Sequence tagging with packed sequences: lengths stay on the CPU by design.
#include <torch/torch.h>

#include <iostream>

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t dim, int64_t tags)
      : emb(register_module("emb", torch::nn::Embedding(vocab, dim))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim, dim).batch_first(true)))),
        out(register_module("out", torch::nn::Linear(dim, tags))) {}

  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& lengths) {
    namespace rnn = torch::nn::utils::rnn;
    auto x = emb->forward(tokens);
    auto packed = rnn::pack_padded_sequence(x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
    auto result = std::get<0>(lstm->forward_with_packed_input(packed));
    auto padded = std::get<0>(rnn::pad_packed_sequence(result, /*batch_first=*/true));
    return out->forward(padded);
  }

  torch::nn::Embedding emb;
  torch::nn::LSTM lstm;
  torch::nn::Linear out;
};
TORCH_MODULE(Tagger);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Tagger tagger(1000, 32, 5);
  tagger->to(device);
  torch::optim::Adam opt(tagger->parameters(), 1e-3);

  for (int step = 0; step < 20; ++step) {
    auto tokens = torch::randint(1, 1000, {4, 12}, torch::kLong).to(device);
    auto lengths = torch::tensor({12, 9, 7, 3}, torch::kLong);  // must be on the CPU for pack_padded_sequence
    auto tags = torch::randint(0, 5, {4, 12}, torch::kLong).to(device);
    auto logits = tagger->forward(tokens, lengths);
    const int64_t T = logits.size(1);

    auto positions = torch::arange(T, torch::kLong).unsqueeze(0);
    auto valid_cpu = positions < lengths.unsqueeze(1);                       // both CPU: fine
    auto valid = valid_cpu.to(device);
    auto per_token = torch::cross_entropy_loss(logits.reshape({-1, 5}), tags.narrow(1, 0, T).reshape(-1),
                                               {}, torch::Reduction::None, -100);
    auto loss = (per_token * valid.reshape(-1)).sum() / valid.sum();
    auto per_token_host = per_token.detach().cpu();  // for logging
    if (step % 10 == 0) std::cout << "worst token loss " << per_token_host.max().item<float>() << '\n';
    auto hard = per_token_host > per_token_host.mean();
    auto weighted = (per_token * hard).sum();  // BUG(device-mismatch): `hard` was computed from the CPU copy; per_token is on the device
    auto first_tokens = logits.index({torch::arange(4), torch::zeros({4}, torch::kLong)});  // CPU indices into a device tensor: fine
    opt.zero_grad();
    (loss + 0.0 * weighted + 0.0 * first_tokens.sum()).backward();
    opt.step();
  }
  std::cout << "ok\n";
}
