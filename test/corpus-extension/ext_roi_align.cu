// RoIAlign forward (torchvision-style): registered for the CUDA key, inputs checked with checkAllSameGPU.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

template <typename T>
__device__ T bilinear(const T* data, int height, int width, T y, T x) {
  if (y < -1.0 || y > height || x < -1.0 || x > width) return 0;
  y = y <= 0 ? 0 : y;
  x = x <= 0 ? 0 : x;
  int y_low = static_cast<int>(y), x_low = static_cast<int>(x);
  int y_high, x_high;
  if (y_low >= height - 1) { y_high = y_low = height - 1; y = (T)y_low; } else { y_high = y_low + 1; }
  if (x_low >= width - 1) { x_high = x_low = width - 1; x = (T)x_low; } else { x_high = x_low + 1; }
  const T ly = y - y_low, lx = x - x_low, hy = 1. - ly, hx = 1. - lx;
  return hy * hx * data[y_low * width + x_low] + hy * lx * data[y_low * width + x_high] +
         ly * hx * data[y_high * width + x_low] + ly * lx * data[y_high * width + x_high];
}

template <typename T>
__global__ void roi_align_forward_kernel(int nthreads, const T* input, T spatial_scale, int channels,
                                         int height, int width, int pooled_height, int pooled_width,
                                         int sampling_ratio, bool aligned, const T* rois, T* output) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < nthreads; index += blockDim.x * gridDim.x) {
    const int pw = index % pooled_width;
    const int ph = (index / pooled_width) % pooled_height;
    const int c = (index / pooled_width / pooled_height) % channels;
    const int n = index / pooled_width / pooled_height / channels;
    const T* roi = rois + n * 5;
    const int batch = roi[0];
    const T offset = aligned ? (T)0.5 : (T)0.0;
    const T x1 = roi[1] * spatial_scale - offset, y1 = roi[2] * spatial_scale - offset;
    const T x2 = roi[3] * spatial_scale - offset, y2 = roi[4] * spatial_scale - offset;
    T roi_w = x2 - x1, roi_h = y2 - y1;
    if (!aligned) { roi_w = roi_w > (T)1. ? roi_w : (T)1.; roi_h = roi_h > (T)1. ? roi_h : (T)1.; }
    const T bin_h = roi_h / pooled_height, bin_w = roi_w / pooled_width;
    const int grid_h = sampling_ratio > 0 ? sampling_ratio : ceil(roi_h / pooled_height);
    const int grid_w = sampling_ratio > 0 ? sampling_ratio : ceil(roi_w / pooled_width);
    const T count = grid_h * grid_w > 1 ? grid_h * grid_w : 1;
    const T* plane = input + (batch * channels + c) * height * width;
    T acc = 0;
    for (int iy = 0; iy < grid_h; ++iy) {
      const T y = y1 + ph * bin_h + (iy + .5f) * bin_h / grid_h;
      for (int ix = 0; ix < grid_w; ++ix) {
        const T x = x1 + pw * bin_w + (ix + .5f) * bin_w / grid_w;
        acc += bilinear(plane, height, width, y, x);
      }
    }
    output[index] = acc / count;
  }
}

at::Tensor roi_align_forward_cuda(const at::Tensor& input, const at::Tensor& rois, double spatial_scale,
                                  int64_t pooled_height, int64_t pooled_width, int64_t sampling_ratio,
                                  bool aligned) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(rois.is_cuda(), "rois must be a CUDA tensor");
  TORCH_CHECK(rois.size(1) == 5, "rois must have shape as Tensor[K, 5]");
  at::TensorArg input_t{input, "input", 1}, rois_t{rois, "rois", 2};
  at::CheckedFrom c = "roi_align_forward_cuda";
  at::checkAllSameGPU(c, {input_t, rois_t});
  at::checkAllSameType(c, {input_t, rois_t});

  at::cuda::CUDAGuard device_guard(input.device());
  const auto num_rois = rois.size(0);
  const auto channels = input.size(1), height = input.size(2), width = input.size(3);
  at::Tensor output = at::zeros({num_rois, channels, pooled_height, pooled_width}, input.options());
  const auto output_size = num_rois * channels * pooled_height * pooled_width;
  if (output.numel() == 0) return output;

  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const dim3 grid(std::min<int64_t>((output_size + 511) / 512, 4096));
  const dim3 block(512);
  auto input_ = input.contiguous(), rois_ = rois.contiguous();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "roi_align_forward_cuda", [&] {
    roi_align_forward_kernel<scalar_t><<<grid, block, 0, stream>>>(
        output_size, input_.data_ptr<scalar_t>(), spatial_scale, channels, height, width,
        pooled_height, pooled_width, sampling_ratio, aligned, rois_.data_ptr<scalar_t>(),
        output.data_ptr<scalar_t>());
  });
  AT_CUDA_CHECK(cudaGetLastError());
  return output;
}

TORCH_LIBRARY(visionops, m) {
  m.def("roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, "
        "int sampling_ratio, bool aligned) -> Tensor");
}

TORCH_LIBRARY_IMPL(visionops, CUDA, m) {
  m.impl("roi_align", &roi_align_forward_cuda);
}
