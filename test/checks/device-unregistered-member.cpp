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

// A dropout holds no parameters, but its forward() reads the training mode,
// which eval() sets on registered submodules only.
struct Classifier : torch::nn::Module {
  Classifier() {
    fc = register_module("fc", torch::nn::Linear(8, 2));
    drop = torch::nn::Dropout(0.5);
  }
  torch::Tensor forward(torch::Tensor x) { return fc(drop(x)); }
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout drop{nullptr};
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: submodule 'drop' of module 'Classifier' is never registered: it has no parameters, but eval() does not reach it, so forward() keeps its training behaviour (random) after eval(); register it with register_module [device-unregistered-member]
  // CHECK-FIXES: {{^}}    drop = register_module("drop", torch::nn::Dropout(0.5));{{$}}
};

// A member read before forward() writes it, or written only on one branch,
// is still what it held before.
struct Running : torch::nn::Module {
  Running() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    auto y = fc(x) + last;
    last = y.detach();
    if (x.dim() > 1)
      scale = x.std();
    return y * scale;
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor last, scale;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'last' of module 'Running' is never registered{{.*}} [device-unregistered-member]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: warning: tensor member 'scale' of module 'Running' is never registered{{.*}} [device-unregistered-member]
};

// A constructor defined out of line, whose initialisers build the members
// without registering them.
struct OutOfLine : torch::nn::Module {
  OutOfLine();
  torch::Tensor forward(torch::Tensor x) { return fc(x) * gain; }
  torch::nn::Linear fc;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: submodule 'fc' of module 'OutOfLine' is never registered{{.*}} [device-unregistered-member]
  torch::Tensor gain;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor member 'gain' of module 'OutOfLine' is never registered{{.*}} [device-unregistered-member]
};
OutOfLine::OutOfLine() : fc(torch::nn::Linear(3, 3)), gain(torch::ones({3})) {}

// Negatives.

// LibTorch's parameter-free modules (pooling, activations, padding, Flatten)
// hold nothing that Module::to, parameters(), serialization or eval() see:
// left unregistered, they behave as registered (as in LibtorchTutorials'
// VGG and YOLOv4-tiny, docs/realworld.md).
struct ConvBlock : torch::nn::Module {
  ConvBlock() : act(torch::nn::LeakyReLUOptions().negative_slope(0.1)) {
    conv = register_module("conv", torch::nn::Conv2d(3, 8, 3));
    pool = torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2));
    avg = torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions(7));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = pad(act(conv(x)));
    return flat(avg(pool->forward(x))).relu() + relu(x).sum();
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::LeakyReLU act{nullptr};
  torch::nn::MaxPool2d pool{nullptr};
  torch::nn::AdaptiveAvgPool2d avg{nullptr};
  torch::nn::ZeroPad2d pad{torch::nn::ZeroPad2dOptions(1)};
  torch::nn::Flatten flat;
  torch::nn::ReLU relu;
};

// forward() writes the members before it reads them (koba-jon/pytorch_cpp's
// VAE keeps its latent statistics for the loss, docs/realworld.md): what it
// reads is on the input's device.
struct Autoencoder : torch::nn::Module {
  Autoencoder() {
    enc = register_module("enc", torch::nn::Linear(8, 4));
    dec = register_module("dec", torch::nn::Linear(4, 8));
  }
  torch::Tensor forward(torch::Tensor x) {
    this->mean = enc(x);
    var = torch::softplus(enc(x));
    this->z = this->mean + var * torch::randn_like(var);
    // Read in a declaration's initialiser (its VAE2d, networks.cpp:64).
    torch::Tensor out = dec(this->z);
    return out;
  }
  torch::Tensor kld() { return (mean * mean + var).sum(); }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
  torch::Tensor mean, var, z;
};

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

// Registered in the initialisers of a constructor defined out of line (as in
// a net.h / net.cpp pair): the definition holds them, not the declaration.
struct InitRegistered : torch::nn::Module {
  explicit InitRegistered(int64_t n);
  torch::Tensor forward(torch::Tensor x) {
    return fc(x * weight + bias) + sub->forward(x);
  }
  torch::Tensor weight, bias;
  torch::nn::Linear fc;
  std::shared_ptr<SubImpl> sub;
};
InitRegistered::InitRegistered(int64_t n)
    : weight(register_buffer("weight", torch::ones(n))),
      bias(register_parameter("bias", torch::zeros(n))),
      fc(register_module("fc", torch::nn::Linear(4, 2))),
      sub(register_module("sub", std::make_shared<SubImpl>())) {}

// A module struct in an anonymous namespace, with torch::nn aliased, its
// holders assigned from register_module in the constructor, and held
// through TORCH_MODULE by the next one.
namespace {
namespace nn = torch::nn;
struct BlockImpl : nn::Module {
  nn::Conv2d conv{nullptr};
  nn::BatchNorm2d norm{nullptr};
  BlockImpl(int in, int out) {
    conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(in, out, 3).bias(false)));
    norm = register_module("norm", nn::BatchNorm2d(out));
  }
  torch::Tensor forward(torch::Tensor x) { return norm->forward(conv->forward(x)); }
};
TORCH_MODULE(Block);
struct StackImpl : nn::Module {
  StackImpl(int c);
  torch::Tensor forward(torch::Tensor x) { return second(first(x)) + head(x); }
  Block first{nullptr}, second{nullptr};
  nn::Linear head;
};
StackImpl::StackImpl(int c) : head(register_module("head", nn::Linear(c, c))) {
  first = register_module("first", Block(c, c));
  second = register_module("second", Block(c, c));
}
TORCH_MODULE(Stack);
} // namespace

// A module in a nested namespace, and a class template (instantiated)
// registering in its initialisers.
namespace models::layers {
struct Scaled : torch::nn::Module {
  Scaled() : fc(register_module("fc", torch::nn::Linear(4, 4))) {
    scale = register_buffer("scale", torch::ones({4}));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) * scale; }
  torch::nn::Linear fc;
  torch::Tensor scale;
};
} // namespace models::layers
template <int64_t N> struct Sized : torch::nn::Module {
  Sized()
      : fc(this->register_module("fc", torch::nn::Linear(N, N))),
        shift(this->register_buffer("shift", torch::zeros(N))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x) + shift; }
  torch::nn::Linear fc;
  torch::Tensor shift;
};
torch::Tensor useTheRest() {
  Stack stack(3);
  models::layers::Scaled scaled;
  Sized<4> sized;
  auto x = torch::ones({4, 4});
  return stack(torch::ones({1, 3, 8, 8})).sum() + scaled.forward(x) +
         sized.forward(x) + InitRegistered(4).forward(x);
}
