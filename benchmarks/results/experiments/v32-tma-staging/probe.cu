// Standalone check of the TMA helpers in tiled_transpose.cuh.
// probe PHASE X BOXROWS PROMO ROWS RANK
#include "../../csrc/cuda/tiled_transpose.cuh"
#include <cudaTypedefs.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace gputranspose::cuda;

__global__ void k_single(const __grid_constant__ CUtensorMap map, int x, unsigned bytes, int rank, unsigned char* out) {
  extern __shared__ __align__(128) char smem[];
  const unsigned bar = shared_address(smem + 4096);
  if (threadIdx.x == 0) tma_barrier_init(bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_barrier_expect(bar, bytes);
    if (rank == 3) {
      tma_load_box(shared_address(smem), &map, x, 0, 0, bar);
    } else {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
          :: "r"(shared_address(smem)), "l"(reinterpret_cast<uint64_t>(&map)), "r"(x), "r"(0), "r"(bar) : "memory");
    }
  }
  tma_barrier_wait(bar);
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) out[i] = smem[i];
}

int main(int argc, char** argv) {
  int ph = atoi(argv[1]), xs = atoi(argv[2]), boxrows = atoi(argv[3]), promo = atoi(argv[4]), rows = atoi(argv[5]), rank = atoi(argv[6]);
  void* fn = nullptr; cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
  const int pitch = 301, cols = 300;
  std::vector<unsigned char> h(rows * pitch);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned char)(i * 7 + 3);
  unsigned char *d, *o; cudaMalloc(&d, h.size() + 64); cudaMalloc(&o, 4096);
  cudaMemset(o, 0xEE, 4096);
  cudaMemcpy(d + 16, h.data(), h.size(), cudaMemcpyHostToDevice);
  unsigned char* in = d + 16;
  uintptr_t row = (uintptr_t)(in + ph * pitch);
  int mis = row % 16;
  cuuint64_t dims[3] = {(cuuint64_t)(cols + mis), (cuuint64_t)((rows - ph + 15) / 16), 1};
  cuuint64_t strides[2] = {(cuuint64_t)16 * pitch, (cuuint64_t)16 * pitch * dims[1]};
  cuuint32_t box[3] = {128, (cuuint32_t)boxrows, 1}, es[3] = {1, 1, 1};
  CUtensorMap map;
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, rank, (void*)(row - mis), dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      promo ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("args %s %s %s %s %s %s: mis %d dims %llu %llu encode %d; ", argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], mis,
         (unsigned long long)dims[0], (unsigned long long)dims[1], (int)r);
  cudaFuncSetAttribute(k_single, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192);
  k_single<<<1, 128, 8192>>>(map, xs + mis, 128 * boxrows, rank, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s; ", cudaGetErrorString(e));
  if (e) { printf("\n"); return 1; }
  std::vector<unsigned char> got(2048); cudaMemcpy(got.data(), o, 2048, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int j = 0; j < boxrows; ++j) for (int c = 0; c < 128; ++c) {
    int rr = ph + 16 * j; int col = xs + c;
    unsigned char want = (rr < rows && col < cols) ? h[rr * pitch + col] : 0;
    if (got[j * 128 + c] != want) { if (bad < 3) printf("bad row %d col %d got %d want %d; ", rr, col, got[j*128+c], want); ++bad; }
  }
  printf("mismatches %d\n", bad);
}
