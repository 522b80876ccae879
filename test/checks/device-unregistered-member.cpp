#include <torch/torch.h>

auto kDevice = torch::kCUDA;

struct Normalize : torch::nn::Module {
  Normalize() {
    scale = torch::ones({3});
    fc = torch::nn::Linear(3, 3);
    conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 1));
    anchors = torch::rand({4, 2});
  }
  torch::Tensor forward(torch::Tensor x) {
    return conv(fc(x * scale + this->anchors.sum()));
  }
  torch::Tensor scale;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'scale' of module 'Normalize' is never registered: Module::to() does not move it, so after the module moves to a GPU, forward() meets it on the CPU; register it with register_buffer or register_parameter [device-unregistered-member]
  // CHECK-FIXES: {{^}}    scale = register_buffer("scale", torch::ones({3}));{{$}}
  torch::nn::Linear fc{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' of module 'Normalize' is never registered: Module::to() does not move it, parameters() does not list it (an optimizer never trains it) and serialization skips it; register it with register_module [device-unregistered-member]
  // CHECK-FIXES: {{^}}    fc = register_module("fc", torch::nn::Linear(3, 3));{{$}}
  torch::nn::Conv2d conv{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'conv' of module 'Normalize' is never registered{{.*}} [device-unregistered-member]
  // CHECK-FIXES: {{^}}    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 1)));{{$}}
  torch::Tensor anchors;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'anchors' of module 'Normalize' is never registered{{.*}} [device-unregistered-member]
  // CHECK-FIXES: {{^}}    anchors = register_buffer("anchors", torch::rand({4, 2}));{{$}}
};

struct SubImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

struct InitLists : torch::nn::Module {
  explicit InitLists(torch::Tensor m) : mean(torch::zeros({3})), std_(m) {
    sub = std::make_shared<SubImpl>();
    emb = torch::nn::Embedding(10, 4);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = sub->forward((x - mean) / std_);
    return y + emb(x.to(torch::kLong)) + bias + torch::matmul(y, proj);
  }
  torch::Tensor mean;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'mean' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
  torch::Tensor std_;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'std_' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
  std::shared_ptr<SubImpl> sub;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: submodule 'sub' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
  // CHECK-FIXES: {{^}}    sub = register_module("sub", std::make_shared<SubImpl>());{{$}}
  torch::nn::Embedding emb{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: submodule 'emb' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
  torch::Tensor bias = torch::zeros({4});
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'bias' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
  torch::Tensor proj = torch::eye(4);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'proj' of module 'InitLists' is never registered{{.*}} [device-unregistered-member]
};

struct FromArgument : torch::nn::Module {
  FromArgument(torch::Tensor table, int n) {
    lookup = table;
    head = torch::nn::Sequential(torch::nn::Linear(n, n), torch::nn::ReLU());
  }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x.index_select(0, lookup)); }
  torch::Tensor lookup;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'lookup' of module 'FromArgument' is never registered{{.*}} [device-unregistered-member]
  // CHECK-FIXES: {{^}}    lookup = register_buffer("lookup", table);{{$}}
  torch::nn::Sequential head{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: submodule 'head' of module 'FromArgument' is never registered{{.*}} [device-unregistered-member]
  // CHECK-FIXES: {{^}}    head = register_module("head", torch::nn::Sequential(torch::nn::Linear(n, n), torch::nn::ReLU()));{{$}}
};

// Negatives.
struct Registered : torch::nn::Module {
  Registered()
      : fc(register_module("fc", torch::nn::Linear(3, 3))) {
    scale = register_buffer("scale", torch::ones({3}));
    weight = register_parameter("weight", torch::randn({3}));
    // The return is ignored, but C++ registers this very tensor: it moves.
    register_buffer("kept", kept);
    sub = register_module("sub", std::make_shared<SubImpl>());
    register_module("other", other);
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc(x * scale * weight + kept) + sub->forward(x) + other->forward(x) +
           x;
  }
  void notForward() { (void)onlyElsewhere; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale, weight, kept = torch::ones({3});
  std::shared_ptr<SubImpl> sub;
  std::shared_ptr<SubImpl> other = std::make_shared<SubImpl>();
  // Not used in forward.
  torch::Tensor onlyElsewhere;
  torch::nn::Linear neverUsed{nullptr};
};

// A module that overrides to() moves its own members.
struct OverridesTo : torch::nn::Module {
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
    extra = extra.to(device);
  }
  torch::Tensor forward(torch::Tensor x) { return x + extra; }
  torch::Tensor extra = torch::zeros({3});
};

// Not a module.
struct Plain {
  torch::Tensor forward(torch::Tensor x) { return x + w; }
  torch::Tensor w;
  torch::nn::Linear fc{nullptr};
};

// forward() moves a member itself, through a call of a const method, and
// writes another (for visualisation) without reading it: neither is left
// behind on the CPU when forward uses it.
struct Sharpen : torch::nn::Module {
  Sharpen() {
    kernel = torch::ones({3, 1, 5, 5}) / 25.0;
    fc = register_module("fc", torch::nn::Linear(4, 4));
  }
  torch::Tensor forward(const torch::Tensor &img) {
    auto k = kernel.to(img.device(), img.scalar_type());
    auto out = fc(img) * k.sum();
    lastOutput = out.detach();
    return out;
  }
  torch::Tensor kernel, lastOutput;
  torch::nn::Linear fc{nullptr};
};

// The constructor is defined in another translation unit (net.cpp): what it
// registers is not seen here, so nothing is concluded.
struct DeclaredHere : torch::nn::Module {
  DeclaredHere();
  torch::Tensor forward(torch::Tensor x) { return fc(x) + bias; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor bias;
};

// A class template: its out-of-line constructor registers through dependent
// calls, resolved only in instantiations.
template <typename T> struct Head : torch::nn::Module {
  Head();
  torch::Tensor forward(torch::Tensor x) { return proj(x); }
  torch::nn::Linear proj{nullptr};
};
template <typename T> Head<T>::Head() {
  proj = this->register_module("proj", torch::nn::Linear(4, 4));
}
torch::Tensor useHead() { return Head<float>().forward(torch::ones({4})); }
