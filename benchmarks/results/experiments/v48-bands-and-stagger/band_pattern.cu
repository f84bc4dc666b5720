// v48 access-pattern oracle: input read as whole rows (copy-like, linear), the transpose's
// exchange through a thread-block cluster's distributed shared memory.
//
// Every kernel so far reads a tile's input rows in runs of 128-512 bytes; where rows start
// anywhere (1-byte odd pitches, slices) each run reads parts of two lines at its ends, and
// v33/v35/v38's oracles found that pattern alone 10-13% dearer than the aligned one, for
// every tile shape, occupancy and walk tried. Here a cluster of CS blocks owns a band of BR
// whole input rows: block k copies the band's k-th contiguous byte range (BR / CS rows) into
// its shared memory with cp.async (aligned 16-byte chunks of contiguous memory: no line is
// split between blocks but at the range's two ends), the cluster syncs, and block k then
// gathers its share of the band's columns from all CS blocks' shared memory
// (ld.shared::cluster, two words a row piece and a funnel shift, as the staged kernel reads
// its staging rows) and writes the output windows (BR bytes of each output row, as aligned
// 16-byte chunks: the skewed kernels' writes). No byte transposing (garbage out, on
// purpose): it times the traffic and the exchange only. LOCAL=1 reads the block's own shared
// memory instead of the owners' (wrong data, same addresses modulo the block): what the
// cluster exchange costs.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 band_pattern.cu -o band_pattern
#include "event_timer.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

constexpr int THREADS = 256;

struct Params {
  const char* in;
  char* out;
  int rows, cols;   // input, 1-byte elements
  int in_pitch;     // bytes
  int out_pitch;    // bytes (= rows)
};

__device__ __forceinline__ void cp_async16(unsigned dst, const char* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}

// CS blocks a cluster, BR rows a band (BR / CS a block), RPB * pitch bytes of shared memory.
template <int CS, int BR, bool LOCAL>
__global__ void __launch_bounds__(THREADS) band(Params p, int smem_bytes) {
  constexpr int RPB = BR / CS;
  static_assert(BR % 16 == 0 && BR % CS == 0, "band");
  extern __shared__ __align__(16) char sm[];
  cg::cluster_group cluster = cg::this_cluster();
  const int k = int(cluster.block_rank());
  const int band_i = blockIdx.x / CS;
  const int i0 = band_i * BR;
  // This block's rows [i0 + k RPB, ...): contiguous bytes, as aligned chunks.
  const long s = long(i0 + k * RPB) * p.in_pitch;
  const long e = min(long(i0 + (k + 1) * RPB), long(p.rows)) * p.in_pitch;
  const long a0 = s & ~15L;
  const int chunks = e > s ? int(((e + 15) & ~15L) - a0) / 16 : 0;
  const unsigned base = unsigned(__cvta_generic_to_shared(sm));
  for (int c = threadIdx.x; c < chunks; c += THREADS) cp_async16(base + 16 * c, p.in + a0 + 16L * c);
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  cluster.sync();

  // Block k's columns [c0, c1), micro-blocks of 16 rows x 4 columns; lanes on consecutive
  // row groups of one column group, so that a warp's stores cover BR-byte windows.
  const int per = ((p.cols + CS - 1) / CS + 3) & ~3;
  const int c0 = k * per, c1 = min(p.cols, c0 + per);
  constexpr int RG = BR / 16;
  const int groups = (c1 - c0 + 3) / 4;
  for (int t = threadIdx.x; t < groups * RG; t += THREADS) {
    const int g = t / RG, rg = t - g * RG;
    const int j = c0 + 4 * g;
    uint32_t acc[4] = {0, 0, 0, 0};
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int r = rg * 16 + i;  // band row
      const int owner = r / RPB;
      const long row_at = long(i0 + r) * p.in_pitch + j;
      const long owner_a0 = (long(i0 + owner * RPB) * p.in_pitch) & ~15L;
      const unsigned off = unsigned(row_at - owner_a0) & ~3u;
      const uint32_t* w;
      if constexpr (LOCAL) {
        w = reinterpret_cast<const uint32_t*>(sm + (off % unsigned(smem_bytes - 8)));
      } else {
        w = cluster.map_shared_rank(reinterpret_cast<const uint32_t*>(sm + off), owner);
      }
      const uint32_t x0 = w[0], x1 = w[1];
      acc[i & 3] ^= __funnelshift_r(x0, x1, 8 * unsigned(row_at));
    }
    if (i0 + rg * 16 < p.rows) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (j + q < p.cols) {
          const long o = ((long(j + q) * p.out_pitch + i0) & ~15L) + 16L * rg;
          uint4 v = make_uint4(acc[0] ^ q, acc[1], acc[2], acc[3]);
          *reinterpret_cast<uint4*>(p.out + o) = v;
        }
      }
    }
  }
  cluster.sync();  // no block leaves while another reads its shared memory
}

struct Shape {
  const char* name;
  int rows, cols, in_pitch;
};

constexpr int REPS = 40;

template <int CS, int BR, bool LOCAL>
void run(const Shape& s, std::vector<char*>& in, std::vector<char*>& out, float copy_us) {
  auto kernel = band<CS, BR, LOCAL>;
  constexpr int RPB = BR / CS;
  const int smem = ((RPB * s.in_pitch + 32 + 15) / 16) * 16 + 16;
  if (smem > 227 * 1024) return;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  if (CS > 8) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const int bands = (s.rows + BR - 1) / BR;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(bands * CS);
  cfg.blockDim = dim3(THREADS);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = CS;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg) != cudaSuccess || clusters == 0) {
    cudaGetLastError();
    std::printf("%-24s CS %2d BR %4d %s: does not launch\n", s.name, CS, BR, LOCAL ? "local " : "dsmem ");
    return;
  }
  Params p{nullptr, nullptr, s.rows, s.cols, s.in_pitch, s.rows};
  const float us = median_us(REPS, [&](int b) {
    p.in = in[b];
    p.out = out[b];
    CHECK(cudaLaunchKernelEx(&cfg, kernel, p, smem));
  });
  std::printf("%-24s CS %2d BR %4d %s smem %6d B, %3d clusters at once, %d bands: %8.2f us %6.3f x copy\n",
              s.name, CS, BR, LOCAL ? "local " : "dsmem ", smem, clusters, bands, us, us / copy_us);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  const Shape shapes[] = {
      {"uint8 8192x8192", 8192, 8192, 8192},
      {"uint8 8191x8193", 8191, 8193, 8193},
      {"uint8 8192x8209[:,:-17]", 8192, 8192, 8209},
      {"uint8 8191x8192", 8191, 8192, 8192},
  };
  for (const Shape& s : shapes) {
    const long in_bytes = long(s.rows) * s.in_pitch + 4096, out_bytes = long(s.cols) * s.rows + 4096;
    const long copy_bytes = long(s.rows) * s.cols;
    std::vector<char*> in, out;
    for (int b = 0; b < NBUF; ++b) {
      char *i, *o;
      CHECK(cudaMalloc(&i, in_bytes));
      CHECK(cudaMalloc(&o, out_bytes));
      CHECK(cudaMemset(i, b + 1, in_bytes));
      in.push_back(i);
      out.push_back(o);
    }
    const float copy_us = median_us(REPS, [&](int b) {
      CHECK(cudaMemcpyAsync(out[b], in[b], copy_bytes, cudaMemcpyDeviceToDevice));
    });
    std::printf("%-24s cudaMemcpy %.2f us\n", s.name, copy_us);
    run<2, 16, false>(s, in, out, copy_us);
    run<4, 32, false>(s, in, out, copy_us);
    run<4, 64, false>(s, in, out, copy_us);
    run<8, 64, false>(s, in, out, copy_us);
    run<8, 64, true>(s, in, out, copy_us);
    run<8, 128, false>(s, in, out, copy_us);
    run<16, 128, false>(s, in, out, copy_us);
    run<16, 128, true>(s, in, out, copy_us);
    run<16, 256, false>(s, in, out, copy_us);
    for (int b = 0; b < NBUF; ++b) {
      CHECK(cudaFree(in[b]));
      CHECK(cudaFree(out[b]));
    }
  }
  return 0;
}
