// Request handler of a sentence-embedding service. The RPC framework (not shown) owns
// the event loop and calls Handler::handle() once per request; the handler keeps the
// TorchScript model resident on the configured device.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdio>
#include <string>
#include <vector>

struct Request {
  std::vector<int64_t> token_ids;
  std::string device_hint;  // "cpu" or "cuda", from the client's JSON
};

struct Response {
  std::vector<float> embedding;
  std::string served_by;
};

class Handler {
 public:
  Handler(const std::string& model_path, torch::Device device)
      : device_(device), model_(torch::jit::load(model_path, device)) {
    model_.eval();
    const std::string backend = c10::DeviceTypeName(device_.type());
    if (backend == "cuda") warm_up();  // BUG(device-string-compare): DeviceTypeName() returns "CUDA" (upper case unless asked otherwise): the GPU is never warmed up and the first requests pay for cuDNN/cuBLAS initialisation
  }

  Response handle(const Request& req) {
    c10::InferenceMode guard;
    Response resp;
    const bool allow_gpu = req.device_hint == "cuda";  // the client's wish, a plain string
    const torch::Device run_on = (allow_gpu && device_.is_cuda()) ? device_ : torch::Device(torch::kCPU);
    if (run_on != device_) {
      resp.served_by = "cpu-fallback";
      return resp;  // this handler only serves from its resident device
    }
    auto ids = torch::tensor(req.token_ids, torch::TensorOptions().dtype(torch::kLong)).unsqueeze(0).to(device_);
    auto mask = torch::ones_like(ids);
    auto emb = model_.forward({ids, mask}).toTensor().squeeze(0).to(torch::kCPU).contiguous();
    resp.embedding.assign(emb.data_ptr<float>(), emb.data_ptr<float>() + emb.numel());
    resp.served_by = device_.str();
    return resp;
  }

 private:
  void warm_up() {
    c10::InferenceMode guard;
    auto ids = torch::zeros({8, 128}, torch::TensorOptions().dtype(torch::kLong).device(device_));
    for (int i = 0; i < 3; ++i) model_.forward({ids, torch::ones_like(ids)});
  }

  torch::Device device_;
  torch::jit::script::Module model_;
};

int main(int argc, char** argv) {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  Handler handler(argc > 1 ? argv[1] : "sentence_encoder.pt", device);
  // Stand-in for the framework: one request from the command line.
  Request req{{101, 2023, 2003, 1037, 3231, 102}, "cuda"};
  Response resp = handler.handle(req);
  std::printf("%zu floats from %s\n", resp.embedding.size(), resp.served_by.c_str());
}
