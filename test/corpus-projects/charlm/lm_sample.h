// charlm: text generation and perplexity, given a model the caller placed on `device`.
#pragma once
#include <torch/torch.h>

#include <string>

#include "lm_data.h"
#include "lm_model.h"

namespace lm {

std::string generate(CharLM& model, const Vocab& vocab, const std::string& prompt, int64_t steps, torch::Device device);
double perplexity(CharLM& model, const torch::Tensor& corpus, int64_t len, torch::Device device);

}  // namespace lm
