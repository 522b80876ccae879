// The LibTorch headers every check fixture includes, precompiled once per
// build so that each fixture parses in seconds instead of ~12 s.
#include <torch/script.h>
#include <torch/torch.h>
