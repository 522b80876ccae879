// LLTM cell kernels: element-wise gates after an addmm; launched from ext_lltm.cpp's binding.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

#include <vector>

namespace {

template <typename scalar_t>
__device__ __forceinline__ scalar_t sigmoid(scalar_t z) {
  return 1.0 / (1.0 + exp(-z));
}

template <typename scalar_t>
__device__ __forceinline__ scalar_t d_sigmoid(scalar_t z) {
  const auto s = sigmoid(z);
  return (1.0 - s) * s;
}

template <typename scalar_t>
__device__ __forceinline__ scalar_t d_tanh(scalar_t z) {
  const auto t = tanh(z);
  return 1 - (t * t);
}

template <typename scalar_t>
__device__ __forceinline__ scalar_t elu(scalar_t z, scalar_t alpha = 1.0) {
  return fmax(0.0, z) + fmin(0.0, alpha * (exp(z) - 1.0));
}

template <typename scalar_t>
__device__ __forceinline__ scalar_t d_elu(scalar_t z, scalar_t alpha = 1.0) {
  const auto e = exp(z);
  const auto d_relu = z < 0.0 ? 0.0 : 1.0;
  return d_relu + (((alpha * (e - 1.0)) < 0.0) ? (alpha * e) : 0.0);
}

template <typename scalar_t>
__global__ void lltm_cuda_forward_kernel(
    const at::PackedTensorAccessor32<scalar_t, 3, at::RestrictPtrTraits> gates,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> old_cell,
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> new_h,
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> new_cell,
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> input_gate,
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> output_gate,
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> candidate_cell) {
  const int n = blockIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < gates.size(2)) {
    input_gate[n][c] = sigmoid(gates[n][0][c]);
    output_gate[n][c] = sigmoid(gates[n][1][c]);
    candidate_cell[n][c] = elu(gates[n][2][c]);
    new_cell[n][c] = old_cell[n][c] + candidate_cell[n][c] * input_gate[n][c];
    new_h[n][c] = tanh(new_cell[n][c]) * output_gate[n][c];
  }
}

template <typename scalar_t>
__global__ void lltm_cuda_backward_kernel(
    at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> d_old_cell,
    at::PackedTensorAccessor32<scalar_t, 3, at::RestrictPtrTraits> d_gates,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> grad_h,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> grad_cell,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> new_cell,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> input_gate,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> output_gate,
    const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> candidate_cell,
    const at::PackedTensorAccessor32<scalar_t, 3, at::RestrictPtrTraits> gate_weights) {
  const int n = blockIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < d_gates.size(2)) {
    const auto d_output_gate = tanh(new_cell[n][c]) * grad_h[n][c];
    const auto d_tanh_new_cell = output_gate[n][c] * grad_h[n][c];
    const auto d_new_cell = d_tanh(new_cell[n][c]) * d_tanh_new_cell + grad_cell[n][c];

    d_old_cell[n][c] = d_new_cell;
    const auto d_candidate_cell = input_gate[n][c] * d_new_cell;
    const auto d_input_gate = candidate_cell[n][c] * d_new_cell;

    d_gates[n][0][c] = d_input_gate * d_sigmoid(gate_weights[n][0][c]);
    d_gates[n][1][c] = d_output_gate * d_sigmoid(gate_weights[n][1][c]);
    d_gates[n][2][c] = d_candidate_cell * d_elu(gate_weights[n][2][c]);
  }
}

}  // namespace

std::vector<at::Tensor> lltm_cuda_forward(at::Tensor input, at::Tensor weights, at::Tensor bias,
                                          at::Tensor old_h, at::Tensor old_cell) {
  auto X = at::cat({old_h, input}, /*dim=*/1);
  auto gate_weights = at::addmm(bias, X, weights.transpose(0, 1));

  const auto batch_size = old_cell.size(0);
  const auto state_size = old_cell.size(1);

  auto gates = gate_weights.reshape({batch_size, 3, state_size});
  auto new_h = at::zeros_like(old_cell);
  auto new_cell = at::zeros_like(old_cell);
  auto input_gate = at::zeros_like(old_cell);
  auto output_gate = at::zeros_like(old_cell);
  auto candidate_cell = at::zeros_like(old_cell);

  const int threads = 1024;
  const dim3 blocks((state_size + threads - 1) / threads, batch_size);
  auto stream = at::cuda::getCurrentCUDAStream();

  AT_DISPATCH_FLOATING_TYPES(gates.scalar_type(), "lltm_forward_cuda", ([&] {
    lltm_cuda_forward_kernel<scalar_t><<<blocks, threads, 0, stream>>>(  // BUG(extension-missing-device-guard): neither this launcher nor the binding in ext_lltm.cpp sets the device; with inputs on cuda:1 the kernel runs on the current device (and its stream)
        gates.packed_accessor32<scalar_t, 3, at::RestrictPtrTraits>(),
        old_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        new_h.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        new_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        input_gate.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        output_gate.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        candidate_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>());
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  return {new_h, new_cell, input_gate, output_gate, candidate_cell, X, gates};
}

std::vector<at::Tensor> lltm_cuda_backward(at::Tensor grad_h, at::Tensor grad_cell,
                                           at::Tensor new_cell, at::Tensor input_gate,
                                           at::Tensor output_gate, at::Tensor candidate_cell,
                                           at::Tensor X, at::Tensor gates, at::Tensor weights) {
  auto d_old_cell = at::zeros_like(new_cell);
  auto d_gates = at::zeros_like(gates);

  const auto batch_size = new_cell.size(0);
  const auto state_size = new_cell.size(1);

  const int threads = 1024;
  const dim3 blocks((state_size + threads - 1) / threads, batch_size);
  auto stream = at::cuda::getCurrentCUDAStream();

  AT_DISPATCH_FLOATING_TYPES(X.scalar_type(), "lltm_backward_cuda", ([&] {
    lltm_cuda_backward_kernel<scalar_t><<<blocks, threads, 0, stream>>>(  // BUG(extension-missing-device-guard): the backward has no guard either; autograd may call it from a thread whose current device is not the gradients' device
        d_old_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        d_gates.packed_accessor32<scalar_t, 3, at::RestrictPtrTraits>(),
        grad_h.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        grad_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        new_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        input_gate.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        output_gate.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        candidate_cell.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        gates.packed_accessor32<scalar_t, 3, at::RestrictPtrTraits>());
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  auto d_gate_weights = d_gates.flatten(1, 2);
  auto d_weights = d_gate_weights.t().mm(X);
  auto d_bias = d_gate_weights.sum(/*dim=*/0, /*keepdim=*/true);

  auto d_X = d_gate_weights.mm(weights);
  auto d_old_h = d_X.slice(/*dim=*/1, 0, state_size);
  auto d_input = d_X.slice(/*dim=*/1, state_size);

  return {d_old_h, d_input, d_weights, d_bias, d_old_cell, d_gates};
}
