// v51 call 7: a sheared tile, which owns whole input lines and needs no hand-over. Calls 1-6
// found the odd pitches' excess in the input lines that two neighbouring tiles both read
// (LINES, each tile reading only the whole lines that start in its window, ran at the
// aligned pattern's speed), and every hand-over of a tile's head dear. A sheared tile
// starts row r's window on that row's line: m(r) = -(r * pitch + c0) mod 128 bytes past
// its column c0, so it reads exactly LINES' lines, and its output rows at the shear's two
// edges are shared with the neighbouring tiles. Where the pitch is 1 mod 128 and a band of
// 128 rows starts on a multiple of 128, m(i) = -i mod 128 for band row i, and tile-local
// output row d (column c0 + d) holds, of the band's 128 bytes:
//   d in [0, 128):         {0} and [128 - d, 128)  (the rest is the left tile's)
//   d in [128, TC):        all of them
//   d in [TC, TC + 127):   [1, 128 - (d - TC))     (the rest is the right tile's)
// so a shared output row splits at one or two seams; each tile writes its part as whole
// 16-byte chunks and, at a seam, aligned pieces of 8, 4, 2 and 1 bytes. The first tile of
// a row also reads the partial line that holds the row's first bytes, and takes the first
// 128 output rows whole.
// Register-only, as calls 1-5 (aligned 16-byte chunks loaded, garbage written): uint8
// 8192 x 8192 with rows 8193 bytes apart (a slice x[:, :-1] of 8192 x 8193), against the
// product's pattern (RUNS) at 8193 and at 8192 (on lines) and LINES at 8193. A fill mode
// first checks that SHEAR's stores cover the output (every byte written, 0xff over zeros),
// and the host that its ownership rule gives every byte to exactly one tile.
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 shear_probe.cu -o shear_probe
#include "../v50-pitch-fixed-cost/event_timer.cuh"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

constexpr int THREADS = 512;
constexpr int TR = 128;   // band rows (output window bytes)
constexpr int TC = 256;   // tile columns (input bytes a row)

// SHEAR_WIDE and SHEAR_SKIP (call 8) split SHEAR's time: their seam chunks written whole by
// both tiles (overlapping: not a transpose), or not at all (bytes left unwritten).
enum Mode { RUNS, LINES, SHEAR, SHEAR_WIDE, SHEAR_SKIP };
const char* mode_name(int m) {
  const char* n[] = {"runs", "lines", "shear", "shear-wide", "shear-skip"};
  return n[m];
}

struct Params {
  const char* in;
  char* out;
  int rows, cols, in_pitch;
  int tiles_r, tiles_c;
  int fill;  // SHEAR: write 0xff (the coverage check) rather than garbage
};

struct Span {  // bytes [lo, hi) of a band's output window
  int lo, hi;
};

// The bytes of tile-local output row d (0 <= d < TC + 127) that a sheared tile owns: up to
// two spans; `first`: the row's first tile, which owns its first 128 output rows whole.
__host__ __device__ inline int owned_spans(int d, bool first, Span (&s)[2]) {
  if (d >= 128 && d < TC) {
    s[0] = {0, TR};
    return 1;
  }
  if (d < 128) {
    if (first) {
      s[0] = {0, TR};
      return 1;
    }
    s[0] = {0, 1};
    s[1] = {128 - d, 128};
    return d == 0 ? 1 : 2;
  }
  s[0] = {1, 128 - (d - TC)};
  return 1;
}

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
// Bytes [lo, hi) of a 16-byte chunk at p (p + lo ... within it) as aligned pieces.
__device__ __forceinline__ void store_piece(char* p, int lo, int hi, uint4 v) {
  while (lo < hi) {
    if ((lo & 7) == 0 && lo + 8 <= hi) {
      asm volatile("st.global.v2.u32 [%0], {%1,%2};" ::"l"(p + lo), "r"(v.x), "r"(v.y) : "memory");
      lo += 8;
    } else if ((lo & 3) == 0 && lo + 4 <= hi) {
      asm volatile("st.global.u32 [%0], %1;" ::"l"(p + lo), "r"(v.z) : "memory");
      lo += 4;
    } else if ((lo & 1) == 0 && lo + 2 <= hi) {
      asm volatile("st.global.u16 [%0], %1;" ::"l"(p + lo), "h"(static_cast<unsigned short>(v.w)) : "memory");
      lo += 2;
    } else {
      asm volatile("st.global.u8 [%0], %1;" ::"l"(p + lo), "h"(static_cast<unsigned short>(v.w & 0xff)) : "memory");
      lo += 1;
    }
  }
}

template <int MODE, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) probe(Params p) {
  constexpr int OWN = TC / 16;
  constexpr int IN_CH = MODE == RUNS ? OWN + 1 : OWN;
  constexpr int NLOAD = TR * IN_CH;
  constexpr int MAXL = (NLOAD + THREADS - 1) / THREADS;
  constexpr int NHEAD = TR * 8;  // SHEAR, the row's first tile: the partial head line
  constexpr int MAXH = (NHEAD + THREADS - 1) / THREADS;
  constexpr bool SHEARED = MODE >= SHEAR;
  constexpr int OUT_ROWS = SHEARED ? TC + 127 : TC;
  constexpr int NSTORE = OUT_ROWS * (TR / 16);
  constexpr int MAXS = (NSTORE + THREADS - 1) / THREADS;

  const int tc = blockIdx.x / p.tiles_r;  // down a column of tiles, as the product walks
  const int tr = blockIdx.x - tc * p.tiles_r;
  const int r0 = tr * TR;
  const int c0 = tc * TC;
  const bool first = tc == 0;

  uint4 acc = make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int q = 0; q < MAXL; ++q) {
    const int u = threadIdx.x + q * THREADS;
    if (u < NLOAD) {
      const int i = u / IN_CH, k = u - i * IN_CH;
      const int r = r0 + i;
      if (r < p.rows) {
        const int row = r * p.in_pitch;
        const int start = row + c0;
        const int row_end = row + p.cols;
        int a, bound;
        if constexpr (MODE == RUNS) {
          a = (start & ~15) + 16 * k;
          bound = min(start + TC, row_end);
        } else {  // the lines that start in [start, start + TC), cut at the row's end
          a = ((start + 127) & ~127) + 16 * k;
          bound = row_end;
        }
        if (a < bound) {
          const uint4 v = load16(p.in + a);
          acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
        }
      }
    }
  }
  if (SHEARED && first) {
#pragma unroll
    for (int q = 0; q < MAXH; ++q) {
      const int u = threadIdx.x + q * THREADS;
      const int i = u / 8, k = u % 8;
      const int r = r0 + i;
      if (u < NHEAD && r < p.rows) {
        const int start = r * p.in_pitch;
        const int a = (start & ~15) + 16 * k;
        if (a < ((start + 127) & ~127)) acc.x ^= load16(p.in + a).x;
      }
    }
  }
  const uint4 val = p.fill ? make_uint4(~0u, ~0u, ~0u, ~0u) : acc;
#pragma unroll
  for (int q = 0; q < MAXS; ++q) {
    const int u = threadIdx.x + q * THREADS;
    if (u < NSTORE) {
      const int d = u / (TR / 16), k = u % (TR / 16);
      const int col = c0 + d;
      if (col < p.cols && r0 + 16 * k < p.rows) {
        char* chunk = p.out + col * p.rows + r0 + 16 * k;
        const uint4 w = make_uint4(val.x ^ (p.fill ? 0u : unsigned(u)), val.y, val.z, val.w);
        if constexpr (!SHEARED) {
          store16(chunk, w);
        } else {
          Span s[2];
          const int n = owned_spans(d, first, s);
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            if (j < n) {
              const int lo = max(s[j].lo, 16 * k) - 16 * k, hi = min(s[j].hi, 16 * k + 16) - 16 * k;
              if (lo == 0 && hi == 16) {
                store16(chunk, w);
              } else if (lo < hi) {
                if (MODE == SHEAR) store_piece(chunk, lo, hi, w);
                if (MODE == SHEAR_WIDE) store16(chunk, w);
              }
            }
          }
        }
      }
    }
  }
}

// Every output byte of a band owned by exactly one tile (tiles 0 .. tiles_c - 1).
bool check_ownership(int cols) {
  const int tiles_c = (cols + TC - 1) / TC;
  std::vector<int> count(size_t(cols) * TR, 0);
  for (int t = 0; t < tiles_c; ++t)
    for (int d = 0; d < TC + 127; ++d) {
      const int col = t * TC + d;
      if (col >= cols) continue;
      Span s[2];
      const int n = owned_spans(d, t == 0, s);
      for (int j = 0; j < n; ++j)
        for (int i = s[j].lo; i < s[j].hi; ++i) ++count[size_t(col) * TR + i];
    }
  for (int c : count)
    if (c != 1) return false;
  return true;
}

struct Shape {
  const char* name;
  int rows, cols, in_pitch;
};

constexpr int REPS = 60;

template <int MODE>
float run(const Shape& s, char* in, char* out, int bpsm, int fill, int* got,
          const std::vector<char*>* ins = nullptr, const std::vector<char*>* outs = nullptr) {
  auto kernel = bpsm == 2 ? probe<MODE, 2> : bpsm == 3 ? probe<MODE, 3> : probe<MODE, 4>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  const int smem = (228 * 1024) / bpsm - 2048;  // holds the SM to bpsm blocks
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, THREADS, smem));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (*got != bpsm || attr.localSizeBytes > 0) return 0.f;  // not reachable, or spills
  Params p{};
  p.rows = s.rows;
  p.cols = s.cols;
  p.in_pitch = s.in_pitch;
  p.tiles_r = (s.rows + TR - 1) / TR;
  p.tiles_c = (s.cols + TC - 1) / TC;
  p.fill = fill;
  const int blocks = p.tiles_r * p.tiles_c;
  if (!ins) {
    p.in = in;
    p.out = out;
    kernel<<<blocks, THREADS, smem>>>(p);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return 1.f;
  }
  return median_us(REPS, [&](int k) {
    p.in = (*ins)[k];
    p.out = (*outs)[k];
    kernel<<<blocks, THREADS, smem>>>(p);
  });
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  const Shape odd{"uint8 8192x8192 of x8193", 8192, 8192, 8193};
  const Shape lines{"uint8 8192x8192", 8192, 8192, 8192};
  std::printf("ownership: every output byte one tile's: %s\n",
              check_ownership(odd.cols) ? "yes" : "NO");
  std::vector<char*> ins, outs;
  const long in_bytes = long(odd.rows) * odd.in_pitch + 256;
  const long out_bytes = long(odd.rows) * odd.cols + 256;
  for (int k = 0; k < NBUF; ++k) {
    char *i, *o;
    CHECK(cudaMalloc(&i, in_bytes));
    CHECK(cudaMalloc(&o, std::max(in_bytes, out_bytes)));
    CHECK(cudaMemset(i, k + 1, in_bytes));
    ins.push_back(i);
    outs.push_back(o);
  }
  // Coverage: SHEAR's stores in fill mode over zeros write every output byte.
  for (int bpsm : {2, 3, 4}) {
    int got = 0;
    CHECK(cudaMemset(outs[0], 0, out_bytes));
    if (run<SHEAR>(odd, ins[0], outs[0], bpsm, 1, &got) == 0.f) continue;
    std::vector<unsigned char> h(size_t(odd.rows) * odd.cols);
    CHECK(cudaMemcpy(h.data(), outs[0], h.size(), cudaMemcpyDeviceToHost));
    const long missing = std::count_if(h.begin(), h.end(), [](unsigned char b) { return b != 0xff; });
    std::printf("coverage (%d/SM): %ld output bytes not written\n", bpsm, missing);
  }
  const long copy_bytes = long(odd.rows) * odd.cols;
  auto memcpy_us = [&] {
    return median_us(REPS, [&](int k) {
      CHECK(cudaMemcpyAsync(outs[k], ins[k], copy_bytes, cudaMemcpyDeviceToDevice));
    });
  };
  for (int round = 1; round <= 2; ++round) {
    const float copy_us = memcpy_us();
    std::printf("round %d: cudaMemcpy %.2f us\n", round, copy_us);
    auto add = [&](const Shape& s, int mode, auto fn) {
      float best = 1e30f;
      int best_b = 0;
      for (int bpsm : {2, 3, 4}) {
        int got = 0;
        const float us = fn(bpsm, &got);
        if (us == 0.f) continue;
        std::printf("%-26s %-6s %d/SM %8.2f %6.3f\n", s.name, mode_name(mode), got, us,
                    us / copy_us);
        if (us < best) best = us, best_b = got;
      }
      std::printf("BEST %-26s %-6s %8.2f us %6.3f x copy (%d/SM)\n", s.name, mode_name(mode),
                  best, best / copy_us, best_b);
    };
#define CASE(S, MODE) \
  add(S, MODE, [&](int b, int* got) { return run<MODE>(S, nullptr, nullptr, b, 0, got, &ins, &outs); })
    CASE(lines, RUNS);
    CASE(odd, RUNS);
    CASE(odd, LINES);
    CASE(odd, SHEAR);
    CASE(odd, SHEAR_WIDE);
    CASE(odd, SHEAR_SKIP);
#undef CASE
    std::printf("round %d: cudaMemcpy after %.2f us\n", round, memcpy_us());
  }
  for (int k = 0; k < NBUF; ++k) {
    CHECK(cudaFree(ins[k]));
    CHECK(cudaFree(outs[k]));
  }
  return 0;
}
