// v51 call 5: does it matter WHEN the two tiles that share a split line read it? Calls 1-3
// found the odd pitches' excess in the lines that two horizontally adjacent tiles both
// read, and found it larger the farther apart in time the two reads fall (a walk of four
// tiles, whose neighbour reads the shared line three steps later: 1.15x the copy against
// 1.10x). The product walks down a whole column of tiles before the next (call 1: RUNS),
// so that the two tiles sharing a line are a column's tiles (64 here) apart in launch
// order. Here the walk takes G horizontally adjacent tiles in consecutive blocks, then the
// next tile-row (G tiles across, down the column band, then the next band): G = 1 is the
// product's walk; G = 2, 4, 8 put 1/2, 3/4, 7/8 of the shared lines' two reads into blocks
// launched together. Modes as line_owner_probe.cu (RUNS, RUNS_SMEM; LINES as the floor).
// Register-only or through shared memory, aligned 16-byte chunks loaded, garbage written.
// uint8 8192 x 8192, rows 8192, 8224 and 8209 bytes apart, output rows aligned.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 group_walk_probe.cu -o group_walk_probe
#include "../v50-pitch-fixed-cost/event_timer.cuh"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

constexpr int THREADS = 512;

enum Mode { RUNS, LINES, COVER, RUNS_SMEM, LINES_SMEM };
const char* mode_name(int m) {
  const char* n[] = {"runs", "lines", "cover", "runs+smem", "lines+smem"};
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

template <int TR, int TCB, int MODE, int G, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) owner(Params p) {
  constexpr bool SMEM = MODE >= RUNS_SMEM;
  constexpr bool HEAD_SLOT = false;
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
  // G tiles across (consecutive blocks), then down the band's tile-rows, then the next band
  // (the last band as wide as the columns left).
  const int band_tiles = p.tiles_r * G;
  const int band = blockIdx.x / band_tiles;
  const int width = min(G, p.tiles_c - band * G);
  const int t = blockIdx.x - band * band_tiles;
  const int tr = t / width;
  const int tc = band * G + (t - tr * width);
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
    __syncthreads();

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

template <int TR, int TCB, int MODE, int G>
float run(const Shape& s, Buffers& bufs, int bpsm, int* got) {
  auto kernel = bpsm == 2   ? owner<TR, TCB, MODE, G, 2>
                : bpsm == 3 ? owner<TR, TCB, MODE, G, 3>
                            : owner<TR, TCB, MODE, G, 4>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  const int need = TR * (TCB / 16 + 8) * 16;
  const int smem = std::max(need, (228 * 1024) / bpsm - 2048);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (*got != bpsm || attr.localSizeBytes > 0) return 0.f;  // not reachable, or spills
  Params p{};
  p.rows = s.rows;
  p.cols = s.cols;
  p.in_pitch = s.in_pitch;
  p.tiles_r = (s.rows + TR - 1) / TR;
  p.tiles_c = (s.cols + TCB - 1) / TCB;
  const int blocks = p.tiles_r * p.tiles_c;
  return median_us(REPS, [&](int k) {
    p.in = bufs.in[k];
    p.out = bufs.out[k];
    kernel<<<blocks, THREADS, smem>>>(p);
  });
}

void sweep(const Shape& s, Buffers& bufs, float copy_us) {
  auto add = [&](const char* tile, int mode, int g, auto fn) {
    float best = 1e30f;
    int best_b = 0;
    for (int bpsm : {2, 3, 4}) {
      int got = 0;
      const float us = fn(bpsm, &got);
      if (us == 0.f) continue;
      std::printf("%-26s %-8s %-10s G%d %d/SM %8.2f %6.3f\n", s.name, tile, mode_name(mode), g,
                  got, us, us / copy_us);
      if (us < best) best = us, best_b = got;
    }
    std::printf("BEST %-26s %-8s %-10s G%d %8.2f us %6.3f x copy (%d/SM)\n", s.name, tile,
                mode_name(mode), g, best, best / copy_us, best_b);
  };
#define CASE(TR, TCB, MODE, G) \
  add(#TR "x" #TCB, MODE, G, [&](int b, int* got) { return run<TR, TCB, MODE, G>(s, bufs, b, got); })
  CASE(128, 256, LINES, 1);
  CASE(128, 256, RUNS, 1);
  CASE(128, 256, RUNS, 2);
  CASE(128, 256, RUNS, 4);
  CASE(128, 256, RUNS, 8);
  CASE(128, 256, RUNS_SMEM, 1);
  CASE(128, 256, RUNS_SMEM, 2);
  CASE(128, 256, RUNS_SMEM, 4);
  CASE(256, 128, LINES, 1);
  CASE(256, 128, RUNS, 1);
  CASE(256, 128, RUNS, 2);
  CASE(256, 128, RUNS, 4);
  CASE(256, 128, RUNS, 8);
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
