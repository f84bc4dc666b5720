// v50: how the pitch's offset from 128-byte lines costs the bare tile traffic, by run length.
// A copy of v38's reg_pattern.cu (its comment below) with other shapes and tiles: uint8
// 8192 x 8192 inputs whose rows lie 8192 (lines), 8224 (32-byte sectors, lines split),
// 8320 (lines, not 256 bytes), 8448 (256 bytes) and 8209 bytes apart (anywhere), tiles of
// 32-256 rows by 128-1024-byte runs. Rows 16-byte aligned load exactly their runs' chunks:
// at 8224 every run reads whole sectors, only its lines are split.
// Register-only access-pattern floor (v38): how fast the memory system serves a tiled
// transpose's reads and writes when nothing else is done. v33's and v35's oracles staged
// each tile in shared memory with cp.async, waited and crossed a block barrier before
// writing, and the real aligned kernel beat them by 7-11%: they were not floors. Here
// every thread loads its share of the tile's aligned 16-byte input chunks into registers
// (ld.global.v4) and, as soon as they arrive, writes its share of the tile's aligned
// 16-byte output chunks (st.global.v4) with a value made of them (garbage on purpose):
// no shared memory, no barrier, no shifting, no transposing (32-bit offsets: inputs
// under 2 GiB). EXCHANGE=1 adds only the
// data exchange a transpose cannot do without: the loaded chunks go through shared
// memory (unshifted 128-bit stores, one barrier, 128-bit loads), as in the real kernels.
//
// Tiles as the real skewed kernels take them (tiled_transpose.cuh): TR input rows of
// TCB bytes; where output rows start anywhere a tile writes STEP = TR - LEAD rows per
// output row in a window starting at the 16-byte chunk that holds its first byte, and
// loads LEAD = 16 / E rows above it. Walk: down a whole column of tiles, then across
// (the real kernels' default), or across a row of tiles, then down.
// Each row: time over a same-size cudaMemcpy (what torch's copy_ runs) in the same run.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 reg_pattern.cu -o reg_pattern
#include "event_timer.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

constexpr int THREADS = 512;

struct Params {
  const char* in;
  char* out;
  long rows, cols;                 // of the input, in elements
  long in_pitch_b, out_pitch_b;    // bytes
  int tiles_r, tiles_c;
  int step;                        // rows written per output row and tile
  int row_major_walk;
};

// LD: 0 plain ld.global (the sweep), 1 .cg (L2 only), 2 the L2::256B prefetch hint (as
// the real kernels' unaligned loads), 3 both (as their staged cp.async.cg copies).
template <int LD = 0>
__device__ __forceinline__ uint4 load16(const char* p) {
  uint4 v;
  if constexpr (LD == 0) {
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if constexpr (LD == 1) {
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if constexpr (LD == 2) {
    asm volatile("ld.global.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else {
    asm volatile("ld.global.cg.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  }
  return v;
}
__device__ __forceinline__ void store16(char* p, uint4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

// IU: input rows start anywhere (one more chunk a row); OU: output rows start anywhere
// (skewed windows, LEAD rows re-read).
template <int TR, int TCB, int E, bool IU, bool OU, bool EXCHANGE, int MINB, int LD>
__global__ void __launch_bounds__(THREADS, MINB) pattern(Params p) {
  constexpr int LEAD = OU ? 16 / E : 0;
  constexpr int IN_CH = TCB / 16 + (IU ? 1 : 0);     // chunks loaded per input row
  constexpr int NLOAD = TR * IN_CH;
  constexpr int MAXL = (NLOAD + THREADS - 1) / THREADS;
  constexpr int TCE = TCB / E;                        // output rows per tile
  constexpr int OUT_CH = ((TR - LEAD) * E) / 16;      // chunks written per output row
  constexpr int NSTORE = TCE * OUT_CH;
  constexpr int MAXS = (NSTORE + THREADS - 1) / THREADS;
  extern __shared__ uint4 smem[];

  const int b = blockIdx.x;
  int tr, tc;
  if (p.row_major_walk) {
    tr = b / p.tiles_c;
    tc = b - tr * p.tiles_c;
  } else {
    tc = b / p.tiles_r;
    tr = b - tc * p.tiles_r;
  }
  const int r0 = tr * p.step;  // first row written
  const int c0 = tc * TCE;     // first column
  const int cend = min(c0 + TCE, int(p.cols));
  const int in_pitch = int(p.in_pitch_b), out_pitch = int(p.out_pitch_b), rows = int(p.rows);

  uint4 v[MAXL];
  uint4 acc = make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int q = 0; q < MAXL; ++q) {
    const int u = threadIdx.x + q * THREADS;
    v[q] = make_uint4(0, 0, 0, 0);
    if (u < NLOAD) {
      const int i = u / IN_CH, k = u - i * IN_CH;
      const int r = r0 - LEAD + i;
      if (r >= 0 && r < rows) {
        const int start = r * in_pitch + c0 * E;
        const int end = r * in_pitch + cend * E;
        const int a = (start & ~15) + 16 * k;
        if (a < end) v[q] = load16<LD>(p.in + a);
      }
    }
  }
  if constexpr (EXCHANGE) {
#pragma unroll
    for (int q = 0; q < MAXL; ++q) {
      const int u = threadIdx.x + q * THREADS;
      if (u < NLOAD) smem[u] = v[q];
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
#pragma unroll
  for (int q = 0; q < MAXS; ++q) {
    const int u = threadIdx.x + q * THREADS;
    if (u < NSTORE) {
      const int jj = u / OUT_CH, k = u - jj * OUT_CH;
      const int j = c0 + jj;
      if (j < p.cols) {
        const int row = j * out_pitch;
        const int a = ((row + r0 * E) & ~15) + 16 * k;
        if (a < row + rows * E) {
          uint4 w;
          if constexpr (EXCHANGE) {
            w = smem[(u * 7) % NLOAD];
          } else {
            w = make_uint4(acc.x ^ u, acc.y, acc.z, acc.w);
          }
          store16(p.out + a, w);
        }
      }
    }
  }
}

// A flat copy in the same style (4 chunks a thread), to check the style reaches cudaMemcpy.
__global__ void __launch_bounds__(THREADS) flat_copy(const uint4* in, uint4* out, long n) {
  const long base = (long(blockIdx.x) * THREADS * 4) + threadIdx.x;
  uint4 v[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const long i = base + long(q) * THREADS;
    if (i < n) v[q] = load16(reinterpret_cast<const char*>(in + i));
  }
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const long i = base + long(q) * THREADS;
    if (i < n) store16(reinterpret_cast<char*>(out + i), v[q]);
  }
}

struct Shape {
  const char* name;
  int E;
  long rows, cols, in_pitch;  // elements
};

constexpr int REPS = 40;

struct Buffers {
  std::vector<char*> in, out;
  long in_bytes, out_bytes;
};

struct Config {
  int tr, tcb;
  bool exchange;
};

template <int TR, int TCB, int E, bool IU, bool OU, bool EX, int LD = 0>
float run_pattern(const Shape& s, Buffers& bufs, int bpsm, bool row_major, int sms, int* got) {
  // Registers bounded for the blocks an SM asked for (ptxas spills where they do not fit).
  auto kernel = bpsm == 2   ? pattern<TR, TCB, E, IU, OU, EX, 2, LD>
                : bpsm == 3 ? pattern<TR, TCB, E, IU, OU, EX, 3, LD>
                            : pattern<TR, TCB, E, IU, OU, EX, 4, LD>;
  constexpr int LEAD = OU ? 16 / E : 0;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  // Shared memory sized to allow bpsm blocks an SM (at least what EXCHANGE needs).
  const int need = EX ? TR * (TCB / 16 + (IU ? 1 : 0)) * 16 : 0;
  const int smem = std::max(need, (228 * 1024) / bpsm - 1024 - 1024);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
  Params p{};
  p.rows = s.rows;
  p.cols = s.cols;
  p.in_pitch_b = s.in_pitch * s.E;
  p.out_pitch_b = s.rows * s.E;
  p.step = TR - LEAD;
  p.tiles_r = int((s.rows + p.step - 1) / p.step);
  p.tiles_c = int((s.cols + TCB / E - 1) / (TCB / E));
  p.row_major_walk = row_major;
  const int blocks = p.tiles_r * p.tiles_c;
  (void)sms;
  return median_us(REPS, [&](int k) {
    p.in = bufs.in[k];
    p.out = bufs.out[k];
    kernel<<<blocks, THREADS, smem>>>(p);
  });
}

bool g_loads_mode = false;  // argv[1] == "loads": the load variants (LD) of three tiles

template <int E, bool IU, bool OU>
void sweep(const Shape& s, Buffers& bufs, float copy_us, int sms) {
  struct Row {
    int tr, tcb, bpsm, got;
    bool row_major, ex;
    float us;
  };
  std::vector<Row> rows;
  int cur_ld = -1;  // the load variant, in loads mode
  auto add = [&](int tr, int tcb, bool ex, auto fn) {
    for (int bpsm : {2, 3, 4})
      for (bool rm : {false, true}) {
        if (g_loads_mode && (rm || bpsm == 4)) continue;
        int got = 0;
        const float us = fn(bpsm, rm, &got);
        if (got != bpsm) continue;  // that occupancy is not reachable for this kernel
        rows.push_back({tr, tcb, bpsm, got, rm, ex, us});
        std::printf("%-22s %4d %4d %d %-6s %s%s %8.2f %6.3f\n", s.name, tr, tcb, got,
                    rm ? "row" : "column", ex ? "smem" : "regs",
                    cur_ld >= 0 ? (" ld" + std::to_string(cur_ld)).c_str() : "", us,
                    us / copy_us);
      }
  };
#define PATTERN(TR, TCB, EX)                                                          \
  add(TR, TCB, EX, [&](int bpsm, bool rm, int* got) {                                \
    return run_pattern<TR, TCB, E, IU, OU, EX>(s, bufs, bpsm, rm, sms, got);         \
  })
#define LOADS(TR, TCB, LD)                                                            \
  add(TR, TCB, false, [&](int bpsm, bool rm, int* got) {                              \
    cur_ld = LD;                                                                      \
    return run_pattern<TR, TCB, E, IU, OU, false, LD>(s, bufs, bpsm, rm, sms, got);   \
  })
  if (g_loads_mode) {
    LOADS(256, 128, 0);
    LOADS(256, 128, 1);
    LOADS(256, 128, 2);
    LOADS(256, 128, 3);
    LOADS(128, 256, 0);
    LOADS(128, 256, 1);
    LOADS(128, 256, 2);
    LOADS(128, 256, 3);
    LOADS(64, 512, 0);
    LOADS(64, 512, 3);
    return;
  }
#undef LOADS
  PATTERN(256, 128, false);
  PATTERN(128, 256, false);
  PATTERN(128, 256, true);
  PATTERN(64, 512, false);
  PATTERN(64, 512, true);
  PATTERN(128, 512, false);
  PATTERN(32, 1024, false);
  PATTERN(32, 1024, true);
#undef PATTERN
  for (bool ex : {false, true}) {
    const Row* best = nullptr;
    for (const auto& r : rows)
      if (r.ex == ex && (!best || r.us < best->us)) best = &r;
    if (best)
      std::printf("BEST %-22s %s %8.2f us %6.3f x copy (%dx%d, %d/SM, %s walk)\n", s.name,
                  ex ? "smem" : "regs", best->us, best->us / copy_us, best->tr, best->tcb,
                  best->bpsm, best->row_major ? "row" : "column");
  }
}

int main(int argc, char** argv) {
  g_loads_mode = argc > 1 && std::string(argv[1]) == "loads";
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  const Shape shapes[] = {
      {"uint8 8192x8192", 1, 8192, 8192, 8192},
      {"uint8 8192x8192 of x8224", 1, 8192, 8192, 8224},
      {"uint8 8192x8192 of x8320", 1, 8192, 8192, 8320},
      {"uint8 8192x8192 of x8448", 1, 8192, 8192, 8448},
      {"uint8 8192x8192 of x8209", 1, 8192, 8192, 8209},
  };
  std::printf("%-22s %4s %4s %s %-6s %s %8s %6s\n", "shape", "TR", "TCB", "b", "walk", "via",
              "us", "x_copy");
  for (const Shape& s : shapes) {
    Buffers bufs;
    bufs.in_bytes = s.rows * s.in_pitch * s.E + 256;
    bufs.out_bytes = s.cols * s.rows * s.E + 256;
    const long copy_bytes = s.rows * s.cols * s.E;  // the same-shape contiguous copy
    for (int k = 0; k < NBUF; ++k) {
      char *i, *o;
      CHECK(cudaMalloc(&i, bufs.in_bytes));
      CHECK(cudaMalloc(&o, std::max(bufs.out_bytes, bufs.in_bytes)));
      CHECK(cudaMemset(i, k + 1, bufs.in_bytes));
      bufs.in.push_back(i);
      bufs.out.push_back(o);
    }
    auto memcpy_us = [&] {
      return median_us(REPS, [&](int k) {
        CHECK(cudaMemcpyAsync(bufs.out[k], bufs.in[k], copy_bytes, cudaMemcpyDeviceToDevice));
      });
    };
    const float copy_before = memcpy_us();
    const long n16 = copy_bytes / 16;
    const float flat = median_us(REPS, [&](int k) {
      flat_copy<<<int((n16 + THREADS * 4 - 1) / (THREADS * 4)), THREADS>>>(
          reinterpret_cast<const uint4*>(bufs.in[k]), reinterpret_cast<uint4*>(bufs.out[k]), n16);
    });
    std::printf("%-22s cudaMemcpy %.2f us, flat LDG/STG copy %.2f us (%.3f)\n", s.name,
                copy_before, flat, flat / copy_before);
    const bool iu = (s.in_pitch * s.E) % 16 != 0, ou = (s.rows * s.E) % 16 != 0;
    if (s.E == 1 && !iu && !ou) sweep<1, false, false>(s, bufs, copy_before, prop.multiProcessorCount);
    if (s.E == 1 && iu && ou) sweep<1, true, true>(s, bufs, copy_before, prop.multiProcessorCount);
    if (s.E == 1 && !iu && ou) sweep<1, false, true>(s, bufs, copy_before, prop.multiProcessorCount);
    if (s.E == 1 && iu && !ou) sweep<1, true, false>(s, bufs, copy_before, prop.multiProcessorCount);
    if (s.E == 2 && iu && ou) sweep<2, true, true>(s, bufs, copy_before, prop.multiProcessorCount);
    if (s.E == 2 && !iu && !ou) sweep<2, false, false>(s, bufs, copy_before, prop.multiProcessorCount);
    const float copy_after = memcpy_us();
    std::printf("%-22s cudaMemcpy after: %.2f us\n", s.name, copy_after);
    for (int k = 0; k < NBUF; ++k) {
      CHECK(cudaFree(bufs.in[k]));
      CHECK(cudaFree(bufs.out[k]));
    }
  }
  return 0;
}
