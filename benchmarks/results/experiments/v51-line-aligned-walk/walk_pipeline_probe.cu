// v51 call 3: can a block that walks a row of tiles carry each row's last line to its next
// tile cheaply enough? Calls 1-2 (walk_probe.cu, line_owner_probe.cu) found the odd pitches'
// excess gone from the bare pattern when every tile reads exactly the whole 128-byte lines
// that start in its window (LINES), and kept when the line it shares with its neighbour is
// read whole by both (COVER) or handed over through a cluster's shared memory (PUSH: slower
// still). A walk of K adjacent tiles by one block needs no hand-over (the carried line is
// already in the block), but call 1's walks cost 3-6% on their own: each step's loads
// waited for the last step's stores, and the blocks in flight sat on K-apart columns.
// Here, LINES walks with the first tile's head read (the one split line a walk keeps),
//   PIPE  step j + 1's loads issued before step j's stores (two register sets), and
//   ROW   the walks' groups taken across a row of groups first (call 1: down a column).
// Register-only, as calls 1-2: aligned 16-byte chunks loaded, garbage written to each
// tile's output windows. uint8 8192 x 8192, rows 8192, 8224 and 8209 bytes apart.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 walk_pipeline_probe.cu -o walk_pipeline_probe
#include "../v50-pitch-fixed-cost/event_timer.cuh"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

constexpr int THREADS = 512;

struct Params {
  const char* in;
  char* out;
  int rows, cols;      // of the input (bytes: uint8)
  int in_pitch;        // bytes
  int tiles_r, groups_c, tiles_c;
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

template <int TR, int TCB, bool LA, int K, bool PIPE, bool ROW, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) walk(Params p) {
  constexpr int IN_CH = TCB / 16 + (LA ? 0 : 1);  // chunks a row: the run's, or its lines'
  constexpr int NLOAD = TR * IN_CH;
  constexpr int MAXL = (NLOAD + THREADS - 1) / THREADS;
  constexpr int OUT_CH = TR / 16;
  constexpr int NSTORE = TCB * OUT_CH;
  constexpr int MAXS = (NSTORE + THREADS - 1) / THREADS;
  constexpr int NHEAD = TR * 8;                    // the walk's first head: up to 8 chunks a row
  constexpr int MAXH = (NHEAD + THREADS - 1) / THREADS;

  int group, tr;
  if (ROW) {
    tr = blockIdx.x / p.groups_c;
    group = blockIdx.x - tr * p.groups_c;
  } else {
    group = blockIdx.x / p.tiles_r;
    tr = blockIdx.x - group * p.tiles_r;
  }
  const int r0 = tr * TR;
  auto load = [&](int j, uint4 (&v)[MAXL]) {
    const int tc = group * K + j;
    const int c0 = tc * TCB;
    const int cend = min(c0 + TCB, p.cols);
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      const int u = threadIdx.x + q * THREADS;
      v[q] = make_uint4(0, 0, 0, 0);
      if (u < NLOAD && tc < p.tiles_c) {
        const int i = u / IN_CH, k = u - i * IN_CH;
        const int r = r0 + i;
        if (r < p.rows) {
          const int start = r * p.in_pitch + c0;
          const int end = r * p.in_pitch + cend;
          const int a = LA ? ((start + 127) & ~127) + 16 * k : (start & ~15) + 16 * k;
          const int bound = LA ? (cend == p.cols ? ((end + 127) & ~127) : INT_MAX) : end;
          if (a < bound) v[q] = load16(p.in + a);
        }
      }
    }
  };
  uint4 acc = make_uint4(0, 0, 0, 0);
  if (LA) {  // the walk's first tile: the chunks of its head, in its left neighbour's line
#pragma unroll
    for (int q = 0; q < MAXH; ++q) {
      const int u = threadIdx.x + q * THREADS;
      const int i = u / 8, k = u % 8;
      const int r = r0 + i;
      if (u < NHEAD && r < p.rows) {
        const int start = r * p.in_pitch + group * K * TCB;
        const int a = (start & ~15) + 16 * k;
        if (a < ((start + 127) & ~127)) {
          const uint4 h = load16(p.in + a);
          acc.x ^= h.x;
        }
      }
    }
  }
  uint4 cur[MAXL], next[MAXL];
  load(0, cur);
#pragma unroll 1
  for (int j = 0; j < K; ++j) {
    const int tc = group * K + j;
    if (tc >= p.tiles_c) break;
    if (PIPE && j + 1 < K) load(j + 1, next);
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      acc.x ^= cur[q].x;
      acc.y ^= cur[q].y;
      acc.z ^= cur[q].z;
      acc.w ^= cur[q].w;
    }
    const int c0 = tc * TCB;
#pragma unroll
    for (int q = 0; q < MAXS; ++q) {
      const int u = threadIdx.x + q * THREADS;
      if (u < NSTORE) {
        const int jj = u / OUT_CH, k = u - jj * OUT_CH;
        const int col = c0 + jj;
        if (col < p.cols && r0 + 16 * k < p.rows) {
          store16(p.out + col * p.rows + r0 + 16 * k, make_uint4(acc.x ^ u, acc.y, acc.z, acc.w));
        }
      }
    }
    if (j + 1 < K) {
      if (PIPE) {
#pragma unroll
        for (int q = 0; q < MAXL; ++q) cur[q] = next[q];
      } else {
        load(j + 1, cur);
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

template <int TR, int TCB, bool LA, int K, bool PIPE, bool ROW>
float run(const Shape& s, Buffers& bufs, int bpsm, int* got) {
  auto kernel = bpsm == 2   ? walk<TR, TCB, LA, K, PIPE, ROW, 2>
                : bpsm == 3 ? walk<TR, TCB, LA, K, PIPE, ROW, 3>
                            : walk<TR, TCB, LA, K, PIPE, ROW, 4>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  const int smem = (228 * 1024) / bpsm - 2048;  // holds the SM to bpsm blocks
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (attr.localSizeBytes > 0) {  // spills at this occupancy's register bound: left out
    std::printf("  (%d/SM spills %zu bytes: left out)\n", bpsm, attr.localSizeBytes);
    *got = 0;
    return 0.f;
  }
  Params p{};
  p.rows = s.rows;
  p.cols = s.cols;
  p.in_pitch = s.in_pitch;
  p.tiles_r = (s.rows + TR - 1) / TR;
  p.tiles_c = (s.cols + TCB - 1) / TCB;
  p.groups_c = (p.tiles_c + K - 1) / K;
  const int blocks = p.tiles_r * p.groups_c;
  return median_us(REPS, [&](int k) {
    p.in = bufs.in[k];
    p.out = bufs.out[k];
    kernel<<<blocks, THREADS, smem>>>(p);
  });
}

void sweep(const Shape& s, Buffers& bufs, float copy_us) {
  auto add = [&](const char* tile, bool la, int k, bool pipe, bool row, auto fn) {
    float best = 1e30f;
    int best_b = 0;
    for (int bpsm : {2, 3, 4}) {
      int got = 0;
      const float us = fn(bpsm, &got);
      if (got != bpsm) continue;
      std::printf("%-26s %-8s %s K%d %-4s %-6s %d/SM %8.2f %6.3f\n", s.name, tile,
                  la ? "lines" : "runs ", k, pipe ? "pipe" : "", row ? "row" : "column", got, us,
                  us / copy_us);
      if (us < best) best = us, best_b = got;
    }
    std::printf("BEST %-26s %-8s %s K%d %-4s %-6s %8.2f us %6.3f x copy (%d/SM)\n", s.name, tile,
                la ? "lines" : "runs ", k, pipe ? "pipe" : "", row ? "row" : "column", best,
                best / copy_us, best_b);
  };
#define CASE(TR, TCB, LA, K, PIPE, ROW)                             \
  add(#TR "x" #TCB, LA, K, PIPE, ROW, [&](int b, int* got) {        \
    return run<TR, TCB, LA, K, PIPE, ROW>(s, bufs, b, got);         \
  })
  CASE(128, 256, false, 1, false, false);
  CASE(128, 256, true, 1, false, false);
  CASE(128, 256, true, 2, false, false);
  CASE(128, 256, true, 2, true, false);
  CASE(128, 256, true, 4, false, false);
  CASE(128, 256, true, 4, true, false);
  CASE(128, 256, true, 4, true, true);
  CASE(128, 256, true, 8, true, false);
  CASE(128, 256, false, 4, true, false);
  CASE(256, 128, false, 1, false, false);
  CASE(256, 128, true, 4, true, false);
  CASE(256, 128, true, 4, true, true);
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
