// Deformable im2col kernel and its launcher for ext_deform_conv.cpp (the caller holds the device guard and passes the stream).
#include <cuda_runtime.h>

#include <c10/cuda/CUDAException.h>

__device__ float deform_bilinear(const float* im, int height, int width, float h, float w) {
  if (h <= -1 || h >= height || w <= -1 || w >= width) return 0.f;
  const int h_low = floorf(h), w_low = floorf(w);
  const int h_high = h_low + 1, w_high = w_low + 1;
  const float lh = h - h_low, lw = w - w_low, hh = 1 - lh, hw = 1 - lw;
  const float v1 = (h_low >= 0 && w_low >= 0) ? im[h_low * width + w_low] : 0.f;
  const float v2 = (h_low >= 0 && w_high <= width - 1) ? im[h_low * width + w_high] : 0.f;
  const float v3 = (h_high <= height - 1 && w_low >= 0) ? im[h_high * width + w_low] : 0.f;
  const float v4 = (h_high <= height - 1 && w_high <= width - 1) ? im[h_high * width + w_high] : 0.f;
  return hh * hw * v1 + hh * lw * v2 + lh * hw * v3 + lh * lw * v4;
}

__global__ void deformable_im2col_kernel(int n, const float* data_im, const float* data_offset, int height,
                                         int width, int kernel_h, int kernel_w, int pad_h, int pad_w,
                                         int stride_h, int stride_w, int height_col, int width_col,
                                         float* data_col) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    const int w_col = index % width_col;
    const int h_col = (index / width_col) % height_col;
    const int c_im = index / width_col / height_col;
    const int h_in = h_col * stride_h - pad_h, w_in = w_col * stride_w - pad_w;
    float* col = data_col + (c_im * kernel_h * kernel_w * height_col + h_col) * width_col + w_col;
    const float* im = data_im + c_im * height * width;
    for (int i = 0; i < kernel_h; ++i) {
      for (int j = 0; j < kernel_w; ++j) {
        const int k = i * kernel_w + j;
        const float off_h = data_offset[((2 * k) * height_col + h_col) * width_col + w_col];
        const float off_w = data_offset[((2 * k + 1) * height_col + h_col) * width_col + w_col];
        *col = deform_bilinear(im, height, width, h_in + i + off_h, w_in + j + off_w);
        col += height_col * width_col;
      }
    }
  }
}

void deformable_im2col_launcher(const float* data_im, const float* data_offset, int channels, int height,
                                int width, int kernel_h, int kernel_w, int pad_h, int pad_w, int stride_h,
                                int stride_w, int height_col, int width_col, float* data_col,
                                cudaStream_t stream) {
  const int n = channels * height_col * width_col;
  const int blocks = (n + 1023) / 1024;
  deformable_im2col_kernel<<<blocks, 1024, 0, stream>>>(n, data_im, data_offset, height, width, kernel_h,
                                                        kernel_w, pad_h, pad_w, stride_h, stride_w,
                                                        height_col, width_col, data_col);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
