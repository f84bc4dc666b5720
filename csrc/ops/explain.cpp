// explain(): what a transpose or permute of a tensor runs on CUDA, and why: the plan (the
// layout as the kernels see it) and the device's kernel choice, as the CUDA kernels make
// them.

#include <gputranspose/transpose.h>

#include "../core/kernel_choice.h"
#include "kernels.h"
#include "tensor_layout.h"

#ifdef GPUTRANSPOSE_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace gputranspose {

namespace {

void describe_choice(const KernelChoice& choice, Explanation& e) {
  if (choice.path == TransposePath::AtenFallback && choice.fallback_reason == nullptr) {
    return;  // the plan's own fallback, as the plan says
  }
  e.path = path_name(choice.path);
  if (choice.fallback_reason != nullptr) {
    e.reason = choice.fallback_reason;
    e.tile_utilization = choice.tile_utilization;
    return;
  }
  e.kernel = kernel_name(choice);
  if (choice.unsupported != nullptr) {
    e.note = choice.unsupported;
    return;
  }
  if (choice.path == TransposePath::NdTiles) {
    e.reason = "tiles over several dims on each side (the kernel's name gives them)";
    e.element_size = choice.element_size;
  }
  e.threads = choice.threads;
  e.blocks = choice.blocks;
  e.shared_bytes = choice.shared_bytes;
  e.tile_utilization = choice.tile_utilization;
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided) {
    e.tiling = tiling_name(choice.tiling);
    e.load = access_name(choice.load);
    e.store = access_name(choice.store);
    e.group_rows = choice.group_rows;
    e.interleave = choice.interleave;
  }
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided ||
      choice.path == TransposePath::TiledUnits ||
      choice.path == TransposePath::WideElements) {
    e.input_l2 = input_l2_name(choice.input_l2);
    e.tile_rows = choice.tile_rows;
    e.tile_cols = choice.tile_cols;
  }
}

// `plan_of(x)` plans the op's move of x (called for supported layouts only).
template <class PlanOf>
Explanation explain_for(const at::Tensor& x, PlanOf&& plan_of, int device, const Tuning* tuning) {
  Explanation e;
  if (const char* message = unsupported_layout(x)) {
    e.path = e.plan_path = "unsupported";
    e.reason = e.plan_reason = message;
    return e;
  }
  const TransposePlan plan = plan_of(x);
  e.path = e.plan_path = path_name(plan.path);
  e.reason = e.plan_reason = plan.reason;
  e.element_size = plan.element_size;
  e.batch = plan.batch;
  e.rows = plan.rows;
  e.cols = plan.cols;
  e.batch_stride = plan.batch_stride;
  e.row_stride = plan.row_stride;
  e.col_stride = plan.col_stride;
  e.stride_unit = plan.stride_unit;
  e.out_batch_stride = plan.out_batch_stride;
  e.out_row_stride = plan.out_row_stride;
  e.outer_sizes.assign(plan.outer_sizes, plan.outer_sizes + plan.outer_dims);
  e.outer_strides.assign(plan.outer_strides, plan.outer_strides + plan.outer_dims);
  e.outer_out_strides.assign(plan.outer_out_strides, plan.outer_out_strides + plan.outer_dims);
  e.load_bytes = plan.load_bytes;
  e.store_bytes = plan.store_bytes;
  // A plan the tiled kernels do not take may still take tiles over several dims.
  if (plan.path == TransposePath::Empty ||
      (plan.path == TransposePath::AtenFallback && !plan.nd.applies)) {
    return e;
  }
#ifdef GPUTRANSPOSE_WITH_CUDA
  if (x.is_cuda()) {
    device = x.device().index();
  } else if (device < 0) {
    device = c10::cuda::device_count() > 0 ? c10::cuda::current_device() : -1;
  }
  if (device < 0) {
    e.note = "no CUDA device to choose a kernel for";
    return e;
  }
  TORCH_CHECK_INDEX(device < c10::cuda::device_count(), "gputranspose.explain: device ", device,
                    " is out of range (", c10::cuda::device_count(), " CUDA devices)");
  e.device = device;
  describe_choice(choose_kernel(plan, cuda_device_facts(device), tuning), e);
#else
  (void)device;
  (void)tuning;
  e.note = "this build has no CUDA kernels";
#endif
  return e;
}

}  // namespace

namespace {

Explanation explain_transpose(const at::Tensor& x, int64_t dim0, int64_t dim1, int device,
                              const Tuning* tuning) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  return explain_for(
      x, [&](const at::Tensor& t) { return plan_transpose(t, dims); }, device, tuning);
}

Explanation explain_permutation(const at::Tensor& x, at::IntArrayRef dims, int device,
                                const Tuning* tuning) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.explain_permute");
  return explain_for(
      x, [&](const at::Tensor& t) { return plan_permute(t, order); }, device, tuning);
}

}  // namespace

Explanation explain(const at::Tensor& x, int64_t dim0, int64_t dim1, int device) {
  return explain_transpose(x, dim0, dim1, device, nullptr);
}

Explanation explain_permute(const at::Tensor& x, at::IntArrayRef dims, int device) {
  return explain_permutation(x, dims, device, nullptr);
}

#ifdef GPUTRANSPOSE_DEVELOPMENT
Explanation explain_tuned(const at::Tensor& x, int64_t dim0, int64_t dim1, int device,
                          const Tuning& tuning) {
  return explain_transpose(x, dim0, dim1, device, &tuning);
}

Explanation explain_permute_tuned(const at::Tensor& x, at::IntArrayRef dims, int device,
                                  const Tuning& tuning) {
  return explain_permutation(x, dims, device, &tuning);
}
#endif

}  // namespace gputranspose
