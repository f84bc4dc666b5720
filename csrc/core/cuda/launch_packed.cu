// Launches of the packed kernel: the unit, tile and runs a KernelChoice names, its
// parameters worked out from the plan.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "packed_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename Unit>
cudaError_t launch_packed_units(const TransposePlan& plan, const KernelChoice& choice,
                                const void* in, void* out, cudaStream_t stream) {
  const int64_t w = plan.element_size;
  PackedParams p;
  p.in = static_cast<const unsigned char*>(in);
  p.out = static_cast<unsigned char*>(out);
  p.batch = plan.batch;
  p.rows = plan.rows;
  p.cols = plan.cols;
  p.batch_pitch = plan.batch_stride * w;
  p.row_pitch = plan.row_stride * w;
  p.element_bytes = static_cast<uint32_t>(w);
  p.tb = static_cast<uint32_t>(choice.tile_batch);
  p.tr = static_cast<uint32_t>(choice.tile_rows);
  p.tc = static_cast<uint32_t>(choice.tile_cols);
  p.tiles_c = (plan.cols + p.tc - 1) / p.tc;
  p.tiles_rc = p.tiles_c * ((plan.rows + p.tr - 1) / p.tr);
  p.tiles = p.tiles_rc * ((plan.batch + p.tb - 1) / p.tb);
  p.load_runs = choice.load_runs;
  p.store_runs = choice.store_runs;
  p.pitch = static_cast<uint32_t>(choice.packed_pitch);
  const uint32_t tile_bytes = p.tb * p.tr * p.tc * p.element_bytes;
  const uint32_t load_run_bytes = p.load_runs == PackedRuns::Tile   ? tile_bytes
                                  : p.load_runs == PackedRuns::Rows ? p.tr * p.tc * p.element_bytes
                                                                    : p.tc * p.element_bytes;
  const uint32_t store_run_bytes = p.store_runs == PackedRuns::Tile   ? tile_bytes
                                   : p.store_runs == PackedRuns::Rows ? p.tc * p.tr * p.element_bytes
                                                                      : p.tr * p.element_bytes;
  // Chunks a run spans: up to 15 bytes of skew before it.
  p.load_slots = (load_run_bytes + 30) / 16;
  p.store_slots = (store_run_bytes + 30) / 16;
  p.load_slot = FastDivider(p.load_slots);
  p.store_slot = FastDivider(p.store_slots);
  p.tile_r = FastDivider(p.tr);
  p.tile_c = FastDivider(p.tc);
  p.element = FastDivider(p.element_bytes);
  packed_transpose_kernel<Unit>
      <<<static_cast<unsigned>(choice.blocks), PackedTile::THREADS, choice.shared_bytes, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_packed(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                          void* out, cudaStream_t stream) {
  switch (choice.unit_bytes) {
    case 1:
      return launch_packed_units<uint8_t>(plan, choice, in, out, stream);
    case 2:
      return launch_packed_units<uint16_t>(plan, choice, in, out, stream);
    case 4:
      return launch_packed_units<uint32_t>(plan, choice, in, out, stream);
    case 8:
      return launch_packed_units<uint2>(plan, choice, in, out, stream);
    case 16:
      return launch_packed_units<uint4>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
