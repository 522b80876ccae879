// Forward kernel of multi-scale deformable attention for ext_ms_deform_attn.cpp (the binding checks and guards).
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__device__ scalar_t ms_bilinear(const scalar_t* value, int height, int width, int num_heads, int channels,
                                scalar_t h, scalar_t w, int head, int c) {
  const int h_low = floor(h), w_low = floor(w);
  const int h_high = h_low + 1, w_high = w_low + 1;
  const scalar_t lh = h - h_low, lw = w - w_low, hh = 1 - lh, hw = 1 - lw;
  const int stride = num_heads * channels;
  auto at_ = [&](int y, int x) -> scalar_t {
    return (y >= 0 && x >= 0 && y < height && x < width) ? value[(y * width + x) * stride + head * channels + c] : scalar_t(0);
  };
  return hh * hw * at_(h_low, w_low) + hh * lw * at_(h_low, w_high) + lh * hw * at_(h_high, w_low) +
         lh * lw * at_(h_high, w_high);
}

template <typename scalar_t>
__global__ void ms_deform_attn_im2col_kernel(int n, const scalar_t* value, const int64_t* spatial_shapes,
                                             const int64_t* level_start_index, const scalar_t* sampling_loc,
                                             const scalar_t* attn_weight, int spatial_size, int num_heads,
                                             int channels, int num_levels, int num_query, int num_point,
                                             scalar_t* out) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    const int c = index % channels;
    const int head = (index / channels) % num_heads;
    const int q = (index / channels / num_heads) % num_query;
    const int b = index / channels / num_heads / num_query;
    scalar_t acc = 0;
    for (int l = 0; l < num_levels; ++l) {
      const int height = spatial_shapes[2 * l], width = spatial_shapes[2 * l + 1];
      const scalar_t* level_value = value + (b * spatial_size + level_start_index[l]) * num_heads * channels;
      for (int p = 0; p < num_point; ++p) {
        const int base = ((((b * num_query + q) * num_heads + head) * num_levels + l) * num_point + p);
        const scalar_t loc_w = sampling_loc[2 * base], loc_h = sampling_loc[2 * base + 1];
        const scalar_t h = loc_h * height - 0.5, w = loc_w * width - 0.5;
        if (h > -1 && w > -1 && h < height && w < width)
          acc += attn_weight[base] * ms_bilinear(level_value, height, width, num_heads, channels, h, w, head, c);
      }
    }
    out[index] = acc;
  }
}

at::Tensor ms_deform_attn_cuda_forward(const at::Tensor& value, const at::Tensor& spatial_shapes,
                                       const at::Tensor& level_start_index, const at::Tensor& sampling_loc,
                                       const at::Tensor& attn_weight) {
  const int batch = value.size(0), spatial_size = value.size(1), num_heads = value.size(2), channels = value.size(3);
  const int num_levels = spatial_shapes.size(0), num_query = sampling_loc.size(1), num_point = sampling_loc.size(4);
  auto output = at::zeros({batch, num_query, num_heads, channels}, value.options());
  const int n = batch * num_query * num_heads * channels;
  if (n == 0) return output.view({batch, num_query, num_heads * channels});
  AT_DISPATCH_FLOATING_TYPES(value.scalar_type(), "ms_deform_attn_forward_cuda", [&] {
    ms_deform_attn_im2col_kernel<scalar_t><<<(n + 1023) / 1024, 1024, 0, at::cuda::getCurrentCUDAStream()>>>(
        n, value.data_ptr<scalar_t>(), spatial_shapes.data_ptr<int64_t>(), level_start_index.data_ptr<int64_t>(),
        sampling_loc.data_ptr<scalar_t>(), attn_weight.data_ptr<scalar_t>(), spatial_size, num_heads, channels,
        num_levels, num_query, num_point, output.data_ptr<scalar_t>());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output.view({batch, num_query, num_heads * channels});
}
