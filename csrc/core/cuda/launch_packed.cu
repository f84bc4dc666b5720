// Launches of the packed kernel: the unit and tile a KernelChoice names, its parameters
// worked out from the plan.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "packed_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename Unit, bool STAGED>
cudaError_t launch_packed_units(const TransposePlan& plan, const KernelChoice& choice,
                                const void* in, void* out, cudaStream_t stream) {
  const int64_t k = plan.element_size / choice.unit_bytes;
  PackedParams p;
  p.in = in;
  p.out = out;
  p.batch = plan.batch;
  p.rows = plan.rows;
  p.cols = plan.cols;
  p.batch_stride = plan.batch_stride * k;
  p.row_stride = plan.row_stride * k;
  p.k = static_cast<uint32_t>(k);
  p.tb = static_cast<uint32_t>(choice.tile_batch);
  p.tr = static_cast<uint32_t>(choice.tile_rows);
  p.tc = static_cast<uint32_t>(choice.tile_cols);
  p.tiles_c = (plan.cols + p.tc - 1) / p.tc;
  p.tiles_rc = p.tiles_c * ((plan.rows + p.tr - 1) / p.tr);
  p.tiles = p.tiles_rc * ((plan.batch + p.tb - 1) / p.tb);
  p.pitch = static_cast<uint32_t>(PackedTile::pitch(int64_t{p.tc} * k, choice.unit_bytes));
  p.run_in = FastDivider(p.tc * p.k);
  p.tile_r = FastDivider(p.tr);
  p.run_out = FastDivider(p.tr * p.k);
  p.tile_c = FastDivider(p.tc);
  p.unit_k = FastDivider(p.k);
  packed_transpose_kernel<Unit, STAGED>
      <<<static_cast<unsigned>(choice.blocks), PackedTile::THREADS, choice.shared_bytes, stream>>>(p);
  return cudaGetLastError();
}

template <typename Unit>
cudaError_t launch_unit(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                        void* out, cudaStream_t stream) {
  return choice.shared_bytes > 0 ? launch_packed_units<Unit, true>(plan, choice, in, out, stream)
                                 : launch_packed_units<Unit, false>(plan, choice, in, out, stream);
}

}  // namespace

cudaError_t launch_packed(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                          void* out, cudaStream_t stream) {
  switch (choice.unit_bytes) {
    case 1:
      return launch_unit<uint8_t>(plan, choice, in, out, stream);
    case 2:
      return launch_unit<uint16_t>(plan, choice, in, out, stream);
    case 4:
      return launch_unit<uint32_t>(plan, choice, in, out, stream);
    case 8:
      return launch_unit<uint2>(plan, choice, in, out, stream);
    case 16:
      return launch_unit<uint4>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
