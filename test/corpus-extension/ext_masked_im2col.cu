// Masked im2col for sparse convolution heads (mmdet-style): gathers columns only at the masked pixels.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

template <typename scalar_t>
__global__ void masked_im2col_kernel(int n, const scalar_t* im, int height, int width, int kernel,
                                     int pad, const int64_t* mask_h, const int64_t* mask_w, int mask_cnt,
                                     scalar_t* col) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    const int m = index % mask_cnt;
    const int c = index / mask_cnt;
    const int h0 = mask_h[m] - pad, w0 = mask_w[m] - pad;
    scalar_t* out = col + (c * kernel * kernel) * mask_cnt + m;
    for (int i = 0; i < kernel; ++i) {
      for (int j = 0; j < kernel; ++j) {
        const int h = h0 + i, w = w0 + j;
        *out = (h >= 0 && w >= 0 && h < height && w < width) ? im[(c * height + h) * width + w] : scalar_t(0);
        out += mask_cnt;
      }
    }
  }
}

at::Tensor masked_im2col(const at::Tensor& im, const at::Tensor& mask_h, const at::Tensor& mask_w,
                         int64_t kernel, int64_t pad) {
  TORCH_CHECK(im.is_cuda() && mask_h.is_cuda() && mask_w.is_cuda(), "masked_im2col: CUDA tensors only");
  at::checkAllSameGPU("masked_im2col", {{im, "im", 1}, {mask_h, "mask_h", 2}, {mask_w, "mask_w", 3}});
  TORCH_CHECK(im.dim() == 3, "im must be [C, H, W]");
  const int channels = im.size(0), height = im.size(1), width = im.size(2);
  const int mask_cnt = mask_h.size(0);
  auto col = at::zeros({channels * kernel * kernel, mask_cnt}, at::device(at::kCUDA).dtype(im.scalar_type()));  // BUG(extension-output-device): at::device(kCUDA) is the current device; the guard below comes too late for this allocation

  const at::cuda::OptionalCUDAGuard device_guard(device_of(im));
  auto im_c = im.contiguous();
  auto mh = mask_h.contiguous();
  auto mw = mask_w.contiguous();
  const int n = channels * mask_cnt;
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(im.scalar_type(), "masked_im2col", [&] {
    masked_im2col_kernel<scalar_t><<<(n + 511) / 512, 512, 0, at::cuda::getCurrentCUDAStream()>>>(
        n, im_c.data_ptr<scalar_t>(), height, width, kernel, pad, mh.data_ptr<int64_t>(),
        mw.data_ptr<int64_t>(), mask_cnt, col.data_ptr<scalar_t>());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return col;
}

TORCH_LIBRARY(mask_ops, m) {
  m.def("masked_im2col(Tensor im, Tensor mask_h, Tensor mask_w, int kernel, int pad) -> Tensor");
}

TORCH_LIBRARY_IMPL(mask_ops, CUDA, m) {
  m.impl("masked_im2col", &masked_im2col);
}
