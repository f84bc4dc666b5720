// v51 call 2: what a tile that owns whole input lines would cost, and how it could get the
// bytes it owns not. Call 1 (walk_probe.cu) found the odd pitches' excess gone from the
// bare pattern when every tile reads exactly the whole 128-byte lines that start in its
// column window (LINES): 8209-byte rows 1.036-1.043x a cudaMemcpy (the chunks that hold
// the window, RUNS: 1.08-1.14x; rows on lines 1.03x). A real tile needs the head of its
// window, which lies in the line its left neighbour owns. Modes, in v50's register-only
// style (aligned 16-byte chunks loaded, garbage written to the tile's output windows):
//   RUNS   the chunks holding the window (the product's pattern; the head line split)
//   LINES  the whole lines starting in the window (call 1; not a transpose: no head)
//   COVER  the whole lines holding the window: every line whole, the head line read by
//          both neighbours (is it the partial line or the second read that costs?)
//   PUSH   LINES, and a thread-block cluster of CS horizontally adjacent tiles hands each
//          tile its head: each block stores its loaded chunks to its shared memory, pushes
//          its last line of each row into its right neighbour's (st.shared::cluster.v4),
//          cluster barrier; the cluster's first block loads its head line from global
//          (one split line per CS tiles). Compared with RUNS_SMEM and LINES_SMEM: the same
//          through shared memory and a block barrier, no cluster.
// Inputs: uint8 8192 x 8192, rows 8192, 8224 and 8209 bytes apart, output rows aligned.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 line_owner_probe.cu -o line_owner_probe
#include "../v50-pitch-fixed-cost/event_timer.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int THREADS = 512;

enum Mode { RUNS, LINES, COVER, RUNS_SMEM, LINES_SMEM, PUSH };
const char* mode_name(int m) {
  const char* n[] = {"runs", "lines", "cover", "runs+smem", "lines+smem", "push"};
  return n[m];
}

struct Params {
  const char* in;
  char* out;
  int rows, cols, in_pitch;
  int tiles_r, tiles_c;
};

__device__ __forceinline__ uint4 load16(const char* p) {  // as the staged cp.async.cg copies
  uint4 v;
  asm volatile("ld.global.cg.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ void store16(char* p, uint4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

template <int TR, int TCB, int MODE, int CS, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) owner(Params p) {
  constexpr bool SMEM = MODE >= RUNS_SMEM;
  constexpr bool HEAD_SLOT = MODE == PUSH;          // 8 chunks a row before its own lines
  constexpr int OWN = TCB / 16;                     // chunks of the window's lines
  constexpr int IN_CH = MODE == RUNS || MODE == RUNS_SMEM ? OWN + 1
                        : MODE == COVER                   ? OWN + 8
                                                          : OWN;
  constexpr int ROW_CH = IN_CH + (HEAD_SLOT ? 8 : 0);  // shared-memory chunks a row
  constexpr int NLOAD = TR * IN_CH;
  constexpr int MAXL = (NLOAD + THREADS - 1) / THREADS;
  constexpr int OUT_CH = TR / 16;
  constexpr int NSTORE = TCB * OUT_CH;
  constexpr int MAXS = (NSTORE + THREADS - 1) / THREADS;
  extern __shared__ uint4 smem[];
  // No block writes into another's shared memory before every block of the cluster runs.
  if constexpr (MODE == PUSH) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");

  // Clusters (CS > 1) take CS adjacent tile columns; tiles walk down a column of them.
  const int j = CS > 1 ? int(blockIdx.x % CS) : 0;
  const int group = blockIdx.x / CS;
  const int gcol = group / p.tiles_r;
  const int tr = group - gcol * p.tiles_r;
  const int tc = gcol * CS + j;
  const int r0 = tr * TR;
  const int c0 = tc * TCB;
  const bool tile_here = tc < p.tiles_c;
  const int cend = min(c0 + TCB, p.cols);

  uint4 v[MAXL];
#pragma unroll
  for (int q = 0; q < MAXL; ++q) {
    const int u = threadIdx.x + q * THREADS;
    v[q] = make_uint4(0, 0, 0, 0);
    if (u < NLOAD && tile_here) {
      const int i = u / IN_CH, k = u - i * IN_CH;
      const int r = r0 + i;
      if (r < p.rows) {
        const int start = r * p.in_pitch + c0;
        const int end = r * p.in_pitch + cend;
        int a, bound;
        if constexpr (MODE == RUNS || MODE == RUNS_SMEM) {
          a = (start & ~15) + 16 * k;
          bound = end;
        } else if constexpr (MODE == COVER) {
          a = (start & ~127) + 16 * k;
          bound = (end + 127) & ~127;
        } else {
          a = ((start + 127) & ~127) + 16 * k;
          bound = cend == p.cols ? ((end + 127) & ~127) : INT_MAX;
        }
        if (a < bound) v[q] = load16(p.in + a);
      }
    }
  }
  uint4 acc = make_uint4(0, 0, 0, 0);
  if constexpr (SMEM) {
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      const int u = threadIdx.x + q * THREADS;
      if (u < NLOAD) {
        const int i = u / IN_CH, k = u - i * IN_CH;
        smem[i * ROW_CH + (HEAD_SLOT ? 8 : 0) + k] = v[q];
      }
    }
    if constexpr (MODE == PUSH) {
      if (j == 0) {  // the cluster's first tile reads its head line itself
        for (int u = threadIdx.x; u < TR * 8; u += THREADS) {
          const int i = u / 8, k = u % 8;
          const int r = r0 + i;
          if (r < p.rows && tile_here) {
            const int start = r * p.in_pitch + c0;
            smem[i * ROW_CH + k] = load16(p.in + (start & ~127) + 16 * k);
          }
        }
      }
      cg::cluster_group cluster = cg::this_cluster();
      __syncthreads();  // own lines staged
      asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
      if (j + 1 < CS) {  // push each row's last line into the right neighbour's head slot
        uint4* right = cluster.map_shared_rank(smem, j + 1);
        for (int u = threadIdx.x; u < TR * 8; u += THREADS) {
          const int i = u / 8, k = u % 8;
          right[i * ROW_CH + k] = smem[i * ROW_CH + 8 + OWN - 8 + k];
        }
      }
      cluster.sync();
    } else {
      __syncthreads();
    }
  } else {
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      acc.x ^= v[q].x;
      acc.y ^= v[q].y;
      acc.z ^= v[q].z;
      acc.w ^= v[q].w;
    }
  }
  if (!tile_here) return;
#pragma unroll
  for (int q = 0; q < MAXS; ++q) {
    const int u = threadIdx.x + q * THREADS;
    if (u < NSTORE) {
      const int jj = u / OUT_CH, k = u - jj * OUT_CH;
      const int col = c0 + jj;
      if (col < p.cols && r0 + 16 * k < p.rows) {
        const uint4 w = SMEM ? smem[(u * 7) % (TR * ROW_CH)] : make_uint4(acc.x ^ u, acc.y, acc.z, acc.w);
        store16(p.out + col * p.rows + r0 + 16 * k, w);
      }
    }
  }
}

struct Shape {
  const char* name;
  int rows, cols, in_pitch;
};

constexpr int REPS = 60;

struct Buffers {
  std::vector<char*> in, out;
};

template <int TR, int TCB, int MODE, int CS>
float run(const Shape& s, Buffers& bufs, int bpsm, int* got) {
  auto kernel = bpsm == 2   ? owner<TR, TCB, MODE, CS, 2>
                : bpsm == 3 ? owner<TR, TCB, MODE, CS, 3>
                            : owner<TR, TCB, MODE, CS, 4>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  constexpr int OWN = TCB / 16;
  constexpr int ROW_CH = OWN + 8 + 1;
  const int need = TR * ROW_CH * 16;
  const int smem = std::max(need, (228 * 1024) / bpsm - 2048);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
  if (*got != bpsm) return 0.f;
  Params p{};
  p.rows = s.rows;
  p.cols = s.cols;
  p.in_pitch = s.in_pitch;
  p.tiles_r = (s.rows + TR - 1) / TR;
  p.tiles_c = (s.cols + TCB - 1) / TCB;
  const int groups_c = (p.tiles_c + CS - 1) / CS;
  const int blocks = p.tiles_r * groups_c * CS;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(THREADS);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = CS;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  if (CS > 1) {
    int clusters = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
    if (clusters * CS < bpsm * 100) {  // clusters do not fill bpsm blocks on most SMs
      *got = clusters * CS;
      return 0.f;
    }
  }
  return median_us(REPS, [&](int k) {
    p.in = bufs.in[k];
    p.out = bufs.out[k];
    CHECK(cudaLaunchKernelEx(&cfg, kernel, p));
  });
}

void sweep(const Shape& s, Buffers& bufs, float copy_us) {
  auto add = [&](const char* tile, int mode, int cs, auto fn) {
    float best = 1e30f;
    int best_b = 0;
    for (int bpsm : {2, 3, 4}) {
      int got = 0;
      const float us = fn(bpsm, &got);
      if (us == 0.f) continue;
      std::printf("%-26s %-8s %-10s CS%d %d/SM %8.2f %6.3f\n", s.name, tile, mode_name(mode), cs,
                  got, us, us / copy_us);
      if (us < best) best = us, best_b = got;
    }
    std::printf("BEST %-26s %-8s %-10s CS%d %8.2f us %6.3f x copy (%d/SM)\n", s.name, tile,
                mode_name(mode), cs, best, best / copy_us, best_b);
  };
#define CASE(TR, TCB, MODE, CS) \
  add(#TR "x" #TCB, MODE, CS, [&](int b, int* got) { return run<TR, TCB, MODE, CS>(s, bufs, b, got); })
  CASE(128, 256, RUNS, 1);
  CASE(128, 256, LINES, 1);
  CASE(128, 256, COVER, 1);
  CASE(128, 256, RUNS_SMEM, 1);
  CASE(128, 256, LINES_SMEM, 1);
  CASE(128, 256, PUSH, 2);
  CASE(128, 256, PUSH, 4);
  CASE(256, 128, RUNS, 1);
  CASE(256, 128, LINES, 1);
  CASE(256, 128, COVER, 1);
  CASE(256, 128, RUNS_SMEM, 1);
  CASE(256, 128, LINES_SMEM, 1);
  CASE(256, 128, PUSH, 2);
  CASE(256, 128, PUSH, 4);
#undef CASE
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  const Shape shapes[] = {
      {"uint8 8192x8192", 8192, 8192, 8192},
      {"uint8 8192x8192 of x8224", 8192, 8192, 8224},
      {"uint8 8192x8192 of x8209", 8192, 8192, 8209},
  };
  for (const Shape& s : shapes) {
    Buffers bufs;
    const long in_bytes = long(s.rows) * s.in_pitch + 256;
    const long out_bytes = long(s.rows) * s.cols + 256;
    for (int k = 0; k < NBUF; ++k) {
      char *i, *o;
      CHECK(cudaMalloc(&i, in_bytes));
      CHECK(cudaMalloc(&o, std::max(in_bytes, out_bytes)));
      CHECK(cudaMemset(i, k + 1, in_bytes));
      bufs.in.push_back(i);
      bufs.out.push_back(o);
    }
    const long copy_bytes = long(s.rows) * s.cols;
    auto memcpy_us = [&] {
      return median_us(REPS, [&](int k) {
        CHECK(cudaMemcpyAsync(bufs.out[k], bufs.in[k], copy_bytes, cudaMemcpyDeviceToDevice));
      });
    };
    const float copy_us = memcpy_us();
    std::printf("%-26s cudaMemcpy %.2f us\n", s.name, copy_us);
    sweep(s, bufs, copy_us);
    std::printf("%-26s cudaMemcpy after %.2f us\n", s.name, memcpy_us());
    for (int k = 0; k < NBUF; ++k) {
      CHECK(cudaFree(bufs.in[k]));
      CHECK(cudaFree(bufs.out[k]));
    }
  }
  return 0;
}
