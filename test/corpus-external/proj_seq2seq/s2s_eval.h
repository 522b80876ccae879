// Corpus-level evaluation helpers for the translator.
#pragma once

#include <vector>

#include "s2s_data.h"
#include "s2s_model.h"

// Per-token perplexity over a set of batches; the model stays wherever the caller put it.
double perplexity(Translator& model, const std::vector<PairBatch>& batches);

// Mean source and target lengths (non-pad tokens) over the batches, computed on the host.
std::pair<double, double> mean_lengths(const std::vector<PairBatch>& batches);
