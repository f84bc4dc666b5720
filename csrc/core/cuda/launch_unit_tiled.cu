// Launches of the unit-tiled kernel: its parameters worked out from the plan and the
// tile that the KernelChoice names.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "unit_tiled_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <int U, bool WORDS>
cudaError_t launch_units_of(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                            void* out, cudaStream_t stream) {
  UnitTiledParams params;
  params.in = static_cast<const char*>(in);
  params.out = static_cast<char*>(out);
  params.rows = plan.rows;
  params.cols = plan.cols;
  // The input's strides in units: every one is a whole number of them (kernel_choice.cpp),
  // though a unit may be wider than the strides' own (values of 1 byte, units of 2).
  params.batch_stride = plan.batch_stride * plan.stride_unit / U;
  params.row_stride = plan.row_stride * plan.stride_unit / U;
  params.col_stride = plan.col_stride * plan.stride_unit / U;
  params.out_batch_stride = plan.out_batch_stride;
  params.out_row_stride = plan.out_row_stride;
  params.tile = choice.tile_rows;
  params.pitch = choice.unit_pitch;
  params.units = FastDivider(static_cast<uint32_t>(plan.element_size / U));
  const int64_t tiles_r = (plan.rows + choice.tile_rows - 1) / choice.tile_rows;
  const int64_t tiles_c = (plan.cols + choice.tile_cols - 1) / choice.tile_cols;
  params.matrix_tiles = FastDivider(static_cast<uint32_t>(tiles_r * tiles_c));
  params.tiles_c = FastDivider(static_cast<uint32_t>(tiles_c));
  params.outer = outer_batch(plan, plan.stride_unit, plan.element_size);
  // Tiles stay within the 48 KiB every kernel may take (kernel_choice.cpp).
  unit_tiled_transpose_kernel<U, WORDS><<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count),
                                          kUnitTiledThreads, choice.shared_bytes, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_unit_tiled(const TransposePlan& plan, const KernelChoice& choice,
                              const void* in, void* out, cudaStream_t stream) {
  switch (choice.unit_size) {
    case 1:
      return choice.unit_words ? launch_units_of<1, true>(plan, choice, in, out, stream)
                               : launch_units_of<1, false>(plan, choice, in, out, stream);
    case 2:  // always words (kernel_choice.cpp)
      return launch_units_of<2, true>(plan, choice, in, out, stream);
    case 4:
      return launch_units_of<4, false>(plan, choice, in, out, stream);
    case 8:
      return launch_units_of<8, false>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
