// v52: a block that streams whole input lines along a band of rows (a walk), against the
// product's staged tile, on the 1-byte slices (input rows start anywhere, output rows
// aligned). v51 put the odd rows' input excess in the 128-byte lines that two tiles both
// read and found register walks too dear on their own (1-7 points). Here the walk is
// the kernel's whole structure: a block of 128 input rows walks S steps of 128 columns;
// each step cp.async-copies one new whole line of each row into a ring of 4 lines a row
// in shared memory (two steps ahead), so that every line of the walk is read once and
// only the walk's first line is shared with the walk before it (one in S + 1, where the
// product's 128 x 256 tile shares one in three). Each thread then takes 16 rows x 4
// columns out of the ring (funnel shifts: rows start anywhere), transposes them in
// registers (byte permutes) and stores four 16-byte output chunks straight to global
// memory (no output tile: one barrier a step). Output rows must be 16-byte aligned.
// Every kernel is checked byte for byte on the host against a poisoned output first.
// Standalone, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v \
//     benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp
#include "../v50-pitch-fixed-cost/event_timer.cuh"
#include "../../../../csrc/cuda/tiled_transpose.cuh"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

using namespace gputranspose::cuda;

constexpr int BAND = 128;     // input rows a block
constexpr int STEP = 128;     // columns a step: one new line of each row
constexpr int THREADS = 256;  // 8 row groups of 16 x 32 column pieces of 4
constexpr int RING = 512;     // bytes of ring a row: 4 lines
constexpr int AHEAD = 2;      // steps loaded ahead (ring: AHEAD + 2 lines live)
constexpr int SMEM = BAND * RING;

struct WalkParams {
  const uint8_t* in;
  uint8_t* out;
  int64_t rows, cols, pitch;  // input, bytes
  int steps;                  // a walk's steps
  int segs, bands;            // walks along a row, bands of rows
  int rot;                    // 1: rotate each 16-row group's ring by 16 bytes a group
  int order;                  // 0: down a column of walks first; 1: along a row first
  int chunks;                 // 1: only the 16-byte chunks that hold the walk's bytes, not whole lines
  int product_map;            // 1 (S = 2, chunks): the chunks copied by the product's staging lanes
};

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

__global__ void __launch_bounds__(THREADS, 3) line_walk(const WalkParams p) {
  extern __shared__ uint4 smem_u4[];
  uint8_t* ring = reinterpret_cast<uint8_t*>(smem_u4);
  const uint32_t* ringw = reinterpret_cast<const uint32_t*>(smem_u4);
  int band, seg;
  if (p.order == 0) {
    band = blockIdx.x % p.bands;
    seg = blockIdx.x / p.bands;
  } else {
    seg = blockIdx.x % p.segs;
    band = blockIdx.x / p.segs;
  }
  const int64_t r0 = int64_t{band} * BAND;
  const int64_t cs = int64_t{seg} * p.steps * STEP;
  const int64_t cend = min(cs + int64_t{p.steps} * STEP, p.cols);
  const int nsteps = static_cast<int>((cend - cs + STEP - 1) / STEP);
  const uintptr_t in = reinterpret_cast<uintptr_t>(p.in);
  const int t = threadIdx.x;

  // Loads: thread t copies chunk t & 7 of the line of rows (t >> 3) + 32 q, q = 0..3.
  uintptr_t first_line[4], first_byte[4], last_byte[4];
  uint32_t ring_row[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int i = (t >> 3) + 32 * q;
    const int64_t r = r0 + i;
    const uintptr_t a = in + r * p.pitch;
    first_line[q] = (a + cs) >> 7;
    first_byte[q] = p.chunks ? a + cs : 0;
    last_byte[q] = r < p.rows ? a + cend - 1 : 0;  // 0: no line of it is loaded
    ring_row[q] = i * RING;
  }
  const uint32_t rot_load = p.rot ? ((t >> 3) >> 4) * 16 : 0;  // i >> 4 for q = 0; +2 groups a q
  auto load_line = [&](int n) {  // line n of each row's walk (0: the one its first byte is in)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const uintptr_t line = first_line[q] + n;
      const uintptr_t src = (line << 7) + 16 * (t & 7);
      // Whole lines: every chunk of a line that holds one of the walk's bytes. Chunks: only
      // the chunks that do (the product's reads).
      const bool wanted = p.chunks ? src + 16 > first_byte[q] && src <= last_byte[q]
                                   : (line << 7) <= last_byte[q];
      if (wanted) {
        const uint32_t rot = p.rot ? ((rot_load + 32 * q) & 112) : 0;
        cp_async16(ring + ring_row[q] + ((src + rot) & (RING - 1)), reinterpret_cast<const void*>(src));
      }
    }
  };
  if (p.product_map) {
    // v54 (--product-map): the walk's chunks (S = 2: every one up front), copied as the
    // product's stage_whole_rows copies a 17-chunk row: a row's first 16 chunks by 16
    // consecutive lanes, two rows a warp, then each row's last chunk by a lane of its own.
#pragma unroll
    for (int k = 0; k < BAND / (THREADS / 16); ++k) {
      const int i = t / 16 + k * (THREADS / 16);
      const int64_t r = r0 + i;
      const uintptr_t a = in + r * p.pitch + cs;
      const uintptr_t src = (a & ~uintptr_t{15}) + 16 * (t % 16);
      const uint32_t rot = p.rot ? ((i >> 4) & 7) * 16 : 0;
      if (r < p.rows && src <= a + (cend - cs) - 1) {
        cp_async16(ring + i * RING + ((src + rot) & (RING - 1)), reinterpret_cast<const void*>(src));
      }
    }
    if (t < BAND) {
      const int64_t r = r0 + t;
      const uintptr_t a = in + r * p.pitch + cs;
      const uintptr_t src = (a & ~uintptr_t{15}) + 256;
      const uint32_t rot = p.rot ? ((t >> 4) & 7) * 16 : 0;
      if (r < p.rows && src <= a + (cend - cs) - 1) {
        cp_async16(ring + t * RING + ((src + rot) & (RING - 1)), reinterpret_cast<const void*>(src));
      }
    }
    cp_commit();
    cp_commit();  // AHEAD = 2 groups, the second empty
  } else {
    load_line(0);
    load_line(1);
    cp_commit();
#pragma unroll
    for (int n = 1; n < AHEAD; ++n) {
      load_line(n + 1);
      cp_commit();
    }
  }

  // Consumer: rows 16 g + [0, 16) of the band, columns 4 c4 + [0, 4) of the step.
  const int g = t & 7, c4 = t >> 3;
  const uint32_t rot = p.rot ? 16 * g : 0;
  const uint32_t pitch_mod = static_cast<uint32_t>(p.pitch & (RING - 1));
  const uint32_t o_base = static_cast<uint32_t>((in + (r0 + 16 * g) * p.pitch + cs + rot) & (RING - 1));
  const uint32_t* rows_w = ringw + 16 * g * (RING / 4);
  const int64_t out_row0 = r0 + 16 * g;
  const int rows_here = static_cast<int>(p.rows - out_row0 < 16 ? p.rows - out_row0 : 16);

#pragma unroll 1
  for (int k = 0; k < nsteps; ++k) {
    cp_wait<AHEAD - 1>();
    __syncthreads();
    load_line(k + AHEAD + 1);
    cp_commit();

    uint32_t x[16];
    uint32_t o = o_base + k * STEP + 4 * c4;
#pragma unroll
    for (int ii = 0; ii < 16; ++ii) {
      const uint32_t oo = o & (RING - 1);
      const uint32_t w0 = oo >> 2;
      const uint32_t* row = rows_w + ii * (RING / 4);
      x[ii] = __funnelshift_r(row[w0], row[(w0 + 1) & (RING / 4 - 1)], (oo & 3) * 8);
      o += pitch_mod;
    }
    uint32_t cw[4][4];  // [output column j][16-row word a]
#pragma unroll
    for (int a = 0; a < 4; ++a) {
      const uint32_t t0 = __byte_perm(x[4 * a], x[4 * a + 1], 0x5140);
      const uint32_t t1 = __byte_perm(x[4 * a], x[4 * a + 1], 0x7362);
      const uint32_t t2 = __byte_perm(x[4 * a + 2], x[4 * a + 3], 0x5140);
      const uint32_t t3 = __byte_perm(x[4 * a + 2], x[4 * a + 3], 0x7362);
      cw[0][a] = __byte_perm(t0, t2, 0x5410);
      cw[1][a] = __byte_perm(t0, t2, 0x7632);
      cw[2][a] = __byte_perm(t1, t3, 0x5410);
      cw[3][a] = __byte_perm(t1, t3, 0x7632);
    }
    const int64_t col = cs + int64_t{k} * STEP + 4 * c4;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (col + j < p.cols && rows_here > 0) {
        uint8_t* dst = p.out + (col + j) * p.rows + out_row0;
        if (rows_here == 16) {
          *reinterpret_cast<uint4*>(dst) = make_uint4(cw[j][0], cw[j][1], cw[j][2], cw[j][3]);
        } else {
#pragma unroll
          for (int e = 0; e < 16; ++e) {
            if (e < rows_here) dst[e] = static_cast<uint8_t>(cw[j][e >> 2] >> (8 * (e & 3)));
          }
        }
      }
    }
  }
  cp_wait<0>();
}

// The product's kernel for these inputs: staged loads, aligned stores, one-matrix tiles.
using Product = TiledTranspose<1, Access::Staged, Access::Aligned16, Tiling::Wide>;

void launch_product(const uint8_t* in, uint8_t* out, int64_t R, int64_t C, int64_t P) {
  TiledTransposeParams prm{};
  prm.in = reinterpret_cast<const char*>(in);
  prm.in_end = prm.in + (R - 1) * P + C;
  prm.out = reinterpret_cast<char*>(out);
  prm.batch = 1;
  prm.rows = R;
  prm.cols = C;
  prm.batch_stride = R * P;
  prm.row_stride = P;
  prm.tiles_r = Product::tiles_along_rows(R);
  prm.tiles_c = Product::tiles_along_cols(C);
  prm.matrix_tiles = FastDivider(static_cast<uint32_t>(prm.tiles_r * prm.tiles_c));
  prm.group_tiles = FastDivider(static_cast<uint32_t>(prm.tiles_r * prm.tiles_c));
  prm.group_rows = FastDivider(static_cast<uint32_t>(prm.tiles_r));
  prm.last_group_rows = FastDivider(static_cast<uint32_t>(prm.tiles_r));
  const auto kernel = tiled_transpose_kernel<1, Access::Staged, Access::Aligned16, Tiling::Wide>;
  static bool once = false;
  if (!once) {
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               Product::SMEM_TOTAL_BYTES));
    once = true;
  }
  kernel<<<static_cast<unsigned>(Product::tiles_of(1, R, C)), Product::THREADS,
           Product::SMEM_TOTAL_BYTES>>>(prm);
}

WalkParams walk_params(const uint8_t* in, uint8_t* out, int64_t R, int64_t C, int64_t P, int steps,
                       int order, int chunks, int product_map = 0) {
  WalkParams w{};
  w.in = in;
  w.out = out;
  w.rows = R;
  w.cols = C;
  w.pitch = P;
  w.steps = steps;
  w.segs = static_cast<int>((C + int64_t{steps} * STEP - 1) / (int64_t{steps} * STEP));
  w.bands = static_cast<int>((R + BAND - 1) / BAND);
  w.rot = (P & 1) ? 0 : 1;  // odd pitches spread a warp's 8 row groups over the banks alone
  w.order = order;
  w.chunks = chunks;
  w.product_map = product_map;
  return w;
}

void launch_walk(const WalkParams& w) {
  line_walk<<<w.segs * w.bands, THREADS, SMEM>>>(w);
}

struct Shape {
  const char* name;
  int64_t rows, cols, pitch, offset;  // the view: rows x cols, rows pitch apart, from byte offset
};

constexpr int REPS = 60;

bool check(const char* what, const Shape& s, const std::vector<uint8_t>& expected, uint8_t* dev_out,
           const std::function<void()>& launch) {
  const int64_t n = s.rows * s.cols;
  CHECK(cudaMemset(dev_out, 0xA5, n));  // poisoned: a byte left unwritten shows
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<uint8_t> got(n);
  CHECK(cudaMemcpy(got.data(), dev_out, n, cudaMemcpyDeviceToHost));
  int64_t bad = 0, first = -1;
  for (int64_t e = 0; e < n; ++e) {
    if (got[e] != expected[e]) {
      if (first < 0) first = e;
      ++bad;
    }
  }
  std::printf("check %-28s %-22s %s", s.name, what, bad ? "MISMATCH" : "exact");
  if (bad) std::printf(" (%lld bytes, first at %lld)", (long long)bad, (long long)first);
  std::printf("\n");
  return bad == 0;
}

int main(int argc, char** argv) {
  // --product-map (v54 call 7): the 2-step walk with its chunks copied by the product's
  // staging lanes, beside its own; otherwise the variants of v52's calls 3-4.
  const bool product_map_run = argc > 1 && std::strcmp(argv[1], "--product-map") == 0;
  const int only_shape = argc > 2 ? std::atoi(argv[2]) : -1;  // (v54 call 9) one shape, by index
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaFuncSetAttribute(line_walk, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, line_walk, THREADS, SMEM));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, line_walk));
  std::printf("device %s, %d SMs, L2 %d MB; walk: %d regs, %zu local bytes, %d blocks/SM; "
              "product tile %dx%d, %d threads, %d B smem\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, attr.numRegs,
              attr.localSizeBytes, per_sm, Product::TR, Product::TC, Product::THREADS,
              Product::SMEM_TOTAL_BYTES);
  const Shape shapes[] = {
      {"uint8 8192x8209[:,:-17]", 8192, 8192, 8209, 0},   // the suite's slice
      {"uint8 8192x8193[:,:-1]", 8192, 8192, 8193, 0},
      {"uint8 8192x8192 of x8210", 8192, 8192, 8210, 0},  // even pitch: the ring's rotation
      {"uint8 8192x8192 [:,7:]", 8192, 8192, 8192, 7},    // rows on lines but 7 bytes in
      {"uint8 16384x8192 of x8209", 16384, 8192, 8209, 0},
      {"uint8 8000x6001 of x6007", 8000, 6001, 6007, 3},  // edges: cols, rows, last walk short
  };
  struct Variant {
    int steps, order, chunks, product_map;
  };
  // Call 1 ran S = 2, 4, 8 and 16, both orders, whole lines (S >= 4 slower); from call 3 on:
  const std::vector<Variant> variants =
      product_map_run ? std::vector<Variant>{{2, 0, 1, 0}, {2, 0, 1, 1}, {2, 1, 1, 0}, {2, 1, 1, 1}}
                      : std::vector<Variant>{{2, 0, 0, 0}, {2, 0, 1, 0}, {2, 1, 0, 0},
                                             {2, 1, 1, 0}, {4, 0, 0, 0}, {4, 0, 1, 0}};
  auto label = [](const Variant& v) {
    static char text[64];
    std::snprintf(text, sizeof text, "walk S%-2d %-6s %-6s", v.steps, v.order ? "row" : "column",
                  v.product_map ? "prodmap" : v.chunks ? "chunks" : "lines");
    return text;
  };
  int failures = 0;
  for (const Shape& s : shapes) {
    if (only_shape >= 0 && &s - shapes != only_shape) continue;
    const int64_t in_bytes = s.offset + (s.rows - 1) * s.pitch + s.cols + 256;
    const int64_t out_bytes = s.rows * s.cols;
    std::vector<uint8_t*> ins, outs;
    std::vector<uint8_t> host_in(in_bytes);
    uint32_t seed = 12345u + static_cast<uint32_t>(s.pitch);
    for (auto& b : host_in) {
      seed = seed * 1664525u + 1013904223u;
      b = static_cast<uint8_t>(seed >> 24);
    }
    std::vector<uint8_t> expected(out_bytes);  // out[c][r] = in[r][c]
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t c = 0; c < s.cols; ++c) expected[c * s.rows + r] = host_in[s.offset + r * s.pitch + c];
    for (int k = 0; k < NBUF; ++k) {
      uint8_t *i, *o;
      CHECK(cudaMalloc(&i, in_bytes));
      CHECK(cudaMalloc(&o, out_bytes));
      CHECK(cudaMemcpy(i, host_in.data(), in_bytes, cudaMemcpyHostToDevice));
      ins.push_back(i);
      outs.push_back(o);
    }
    const bool aligned_out = s.rows % 16 == 0;
    failures += !check("product", s, expected, outs[0],
                       [&] { launch_product(ins[0] + s.offset, outs[0], s.rows, s.cols, s.pitch); });
    if (aligned_out) {
      for (const Variant& v : variants) {
        const WalkParams w =
            walk_params(ins[0] + s.offset, outs[0], s.rows, s.cols, s.pitch, v.steps, v.order, v.chunks,
                        v.product_map);
        failures += !check(label(v), s, expected, outs[0], [&] { launch_walk(w); });
      }
    }
    auto copy_us = [&] {
      return median_us(REPS, [&](int k) {
        CHECK(cudaMemcpyAsync(outs[k], ins[k], out_bytes, cudaMemcpyDeviceToDevice));
      });
    };
    for (int round = 1; round <= 3; ++round) {
      const float copy = copy_us();
      const float prod = median_us(REPS, [&](int k) {
        launch_product(ins[k] + s.offset, outs[k], s.rows, s.cols, s.pitch);
      });
      std::printf("%-28s round %d cudaMemcpy %8.2f us | product %8.2f us %6.3f x copy\n", s.name,
                  round, copy, prod, prod / copy);
      if (!aligned_out) continue;
      for (const Variant& v : variants) {
        const float us = median_us(REPS, [&](int k) {
          launch_walk(walk_params(ins[k] + s.offset, outs[k], s.rows, s.cols, s.pitch, v.steps, v.order,
                                  v.chunks, v.product_map));
        });
        std::printf("%-28s round %d %s %8.2f us %6.3f x copy %6.3f x product\n", s.name, round,
                    label(v), us, us / copy, us / prod);
      }
    }
    for (int k = 0; k < NBUF; ++k) {
      CHECK(cudaFree(ins[k]));
      CHECK(cudaFree(outs[k]));
    }
  }
  std::printf("%s\n", failures ? "SOME CHECKS FAILED" : "all checks exact");
  return failures ? 1 : 0;
}
