// v51: would input reads that never split a 128-byte line take the odd 1-byte rows' excess
// away? v50's bare-pattern probe (line_split_probe.cu, whose style this copies) put that
// excess in the runs that start off a line: every tile reads a run of each input row, the
// run's first and last lines are split with the neighbouring tiles, and the cost falls as
// 1/run. Here the same register-only pattern (aligned 16-byte chunks loaded, garbage
// written to the tile's output windows; no shared memory, no transposing) with two knobs:
//   LA (line-aligned): a tile reads, of each input row, exactly the whole 128-byte lines
//      that START inside its column window [c0, c0 + TCB) - TCB / 128 lines, none split,
//      none read by two tiles - instead of the chunks that hold the window (one more
//      chunk, split lines). A real kernel would carry each row's last line's tail to the
//      next tile of a walk (below) or hand it to the neighbouring tile; the probe only
//      asks what the memory system charges for the pattern.
//   K  (walk): a block takes K horizontally adjacent tiles one after the other (column
//      groups of K tiles; groups walked down a column, as the product walks tiles), so
//      that a row's consecutive runs are read by one SM, one after the other.
// Inputs: uint8 8192 x 8192 whose rows lie 8192 (on lines), 8224 (sectors, lines split)
// and 8209 bytes apart (anywhere); output rows 8192 bytes apart (aligned: the slices'
// case, the staged aligned-store kernel). Each row: time over a same-size cudaMemcpy.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 walk_probe.cu -o walk_probe
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

template <int TR, int TCB, bool LA, int K, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) walk(Params p) {
  constexpr int IN_CH = TCB / 16 + (LA ? 0 : 1);  // chunks a row: the run's, or its lines'
  constexpr int NLOAD = TR * IN_CH;
  constexpr int MAXL = (NLOAD + THREADS - 1) / THREADS;
  constexpr int OUT_CH = TR / 16;
  constexpr int NSTORE = TCB * OUT_CH;
  constexpr int MAXS = (NSTORE + THREADS - 1) / THREADS;

  const int group = blockIdx.x / p.tiles_r;
  const int tr = blockIdx.x - group * p.tiles_r;
  const int r0 = tr * TR;
  for (int j = 0; j < K; ++j) {
    const int tc = group * K + j;
    if (tc >= p.tiles_c) break;
    const int c0 = tc * TCB;
    const int cend = min(c0 + TCB, p.cols);
    uint4 v[MAXL];
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      const int u = threadIdx.x + q * THREADS;
      v[q] = make_uint4(0, 0, 0, 0);
      if (u < NLOAD) {
        const int i = u / IN_CH, k = u - i * IN_CH;
        const int r = r0 + i;
        if (r < p.rows) {
          const int start = r * p.in_pitch + c0;
          const int end = r * p.in_pitch + cend;
          // LA: the lines starting in [start, start + TCB); the row's last tile also reads
          // the line holding the row's end (within the buffer's slack).
          const int a = LA ? ((start + 127) & ~127) + 16 * k : (start & ~15) + 16 * k;
          const int bound = LA ? (cend == p.cols ? ((end + 127) & ~127) : INT_MAX) : end;
          if (a < bound) v[q] = load16(p.in + a);
        }
      }
    }
    uint4 acc = make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      acc.x ^= v[q].x;
      acc.y ^= v[q].y;
      acc.z ^= v[q].z;
      acc.w ^= v[q].w;
    }
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

template <int TR, int TCB, bool LA, int K>
float run(const Shape& s, Buffers& bufs, int bpsm, int* got) {
  auto kernel = bpsm == 2 ? walk<TR, TCB, LA, K, 2>
                          : bpsm == 3 ? walk<TR, TCB, LA, K, 3> : walk<TR, TCB, LA, K, 4>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  const int smem = (228 * 1024) / bpsm - 2048;  // holds the SM to bpsm blocks
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
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
  auto add = [&](const char* tile, bool la, int k, auto fn) {
    float best = 1e30f;
    int best_b = 0;
    for (int bpsm : {2, 3, 4}) {
      int got = 0;
      const float us = fn(bpsm, &got);
      if (got != bpsm) continue;
      std::printf("%-26s %-8s %s K%d %d/SM %8.2f %6.3f\n", s.name, tile, la ? "lines" : "runs ",
                  k, got, us, us / copy_us);
      if (us < best) best = us, best_b = got;
    }
    std::printf("BEST %-26s %-8s %s K%d %8.2f us %6.3f x copy (%d/SM)\n", s.name, tile,
                la ? "lines" : "runs ", k, best, best / copy_us, best_b);
  };
#define CASE(TR, TCB, LA, K) \
  add(#TR "x" #TCB, LA, K, [&](int b, int* got) { return run<TR, TCB, LA, K>(s, bufs, b, got); })
  CASE(128, 256, false, 1);
  CASE(128, 256, true, 1);
  CASE(128, 256, false, 4);
  CASE(128, 256, true, 4);
  CASE(64, 512, false, 1);
  CASE(64, 512, true, 1);
  CASE(256, 128, false, 1);
  CASE(256, 128, true, 1);
  CASE(256, 128, true, 8);
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
