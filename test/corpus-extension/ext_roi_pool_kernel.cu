// RoI max pooling kernels and launchers for ext_roi_pool.cpp (raw pointers; the binding passes the stream).
#include <cuda_runtime.h>
#include <algorithm>
#include <cfloat>

#include <c10/cuda/CUDAException.h>

#define CUDA_1D_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

__global__ void roi_pool_forward_kernel(int nthreads, const float* input, const float* rois,
                                        float* output, int* argmax, int channels, int height,
                                        int width, int pooled_h, int pooled_w, float spatial_scale) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    const int pw = index % pooled_w;
    const int ph = (index / pooled_w) % pooled_h;
    const int c = (index / pooled_w / pooled_h) % channels;
    const int n = index / pooled_w / pooled_h / channels;
    const float* roi = rois + n * 5;
    const int batch = roi[0];
    const int x1 = roundf(roi[1] * spatial_scale), y1 = roundf(roi[2] * spatial_scale);
    const int x2 = roundf(roi[3] * spatial_scale), y2 = roundf(roi[4] * spatial_scale);
    const float bin_h = static_cast<float>(max(y2 - y1 + 1, 1)) / pooled_h;
    const float bin_w = static_cast<float>(max(x2 - x1 + 1, 1)) / pooled_w;
    const int hstart = min(max(static_cast<int>(floorf(ph * bin_h)) + y1, 0), height);
    const int hend = min(max(static_cast<int>(ceilf((ph + 1) * bin_h)) + y1, 0), height);
    const int wstart = min(max(static_cast<int>(floorf(pw * bin_w)) + x1, 0), width);
    const int wend = min(max(static_cast<int>(ceilf((pw + 1) * bin_w)) + x1, 0), width);
    const bool empty = hend <= hstart || wend <= wstart;
    float best = empty ? 0.f : -FLT_MAX;
    int best_idx = -1;
    const float* plane = input + (batch * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h)
      for (int w = wstart; w < wend; ++w)
        if (plane[h * width + w] > best) { best = plane[h * width + w]; best_idx = h * width + w; }
    output[index] = best;
    argmax[index] = best_idx;
  }
}

__global__ void roi_pool_backward_kernel(int nthreads, const float* grad_output, const int* argmax,
                                         float* grad_input, int channels, int height, int width,
                                         int pooled_h, int pooled_w) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    const int c = (index / pooled_w / pooled_h) % channels;
    const int n = index / pooled_w / pooled_h / channels;
    const int arg = argmax[index];
    if (arg >= 0) atomicAdd(grad_input + (n * channels + c) * height * width + arg, grad_output[index]);
  }
}

void roi_pool_forward_launcher(const float* input, const float* rois, float* output, int* argmax,
                               int num_rois, int channels, int height, int width, int pooled_h,
                               int pooled_w, float spatial_scale, cudaStream_t stream) {
  const int nthreads = num_rois * channels * pooled_h * pooled_w;
  const int blocks = std::min((nthreads + 511) / 512, 4096);
  roi_pool_forward_kernel<<<blocks, 512, 0, stream>>>(  // BUG(extension-mixed-devices): roi_pool_forward (ext_roi_pool.cpp) never checks that rois is on input's device; rois on another GPU are read here through a pointer of the wrong device
      nthreads, input, rois, output, argmax, channels, height, width, pooled_h, pooled_w, spatial_scale);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void roi_pool_backward_launcher(const float* grad_output, const int* argmax, float* grad_input,
                                int num_rois, int channels, int height, int width, int pooled_h,
                                int pooled_w, cudaStream_t stream) {
  const int nthreads = num_rois * channels * pooled_h * pooled_w;
  const int blocks = std::min((nthreads + 511) / 512, 4096);
  roi_pool_backward_kernel<<<blocks, 512, 0, stream>>>(nthreads, grad_output, argmax, grad_input,
                                                       channels, height, width, pooled_h, pooled_w);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
