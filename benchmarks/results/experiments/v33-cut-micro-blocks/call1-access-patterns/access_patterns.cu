// Access-pattern oracle for odd pitches (v33): how fast the memory system serves a
// tiled transpose's reads and writes alone, for a tile geometry, a walk order and a
// number of blocks per SM, with no transposing work (the output is garbage on
// purpose). Each block stages the aligned 16-byte chunks that hold its TR input rows
// of TCB bytes (cp.async.cg, the L2::256B hint, as the staged kernel), waits, and
// writes TCB output windows of TR bytes as whole aligned 16-byte chunks (each window
// starts at the chunk holding its first byte, so neighbouring tiles share no chunk).
// Time over a same-size cudaMemcpy in the same run says what any kernel of that
// pattern pays for the pitch. Standalone: nvcc -O3 -arch=sm_90 access_patterns.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

struct Shape {
  const char* name;
  long rows, cols, in_pitch, out_pitch;  // bytes (1-byte elements)
};

struct Params {
  const char* in;
  char* out;
  long rows, cols, in_pitch, out_pitch;
  int tiles_r, tiles_c, group;
  int in_chunks;  // 16-byte chunks staged per row: TCB / 16, + 1 where rows start anywhere
};

__device__ __forceinline__ void copy_async_16(unsigned dst, const char* src) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(dst), "l"(src)
               : "memory");
}

template <int TR, int TCB, int THREADS>
__global__ void __launch_bounds__(THREADS) pattern_kernel(Params p) {
  extern __shared__ __align__(16) char smem[];
  // Tile of this block: groups of `group` tile-rows, down a group, then across.
  const int b = blockIdx.x;
  const int per_group = p.group * p.tiles_c;
  const int g = b / per_group;
  const int within = b - g * per_group;
  const int rows_in_group = min(p.group, p.tiles_r - g * p.group);
  const long r0 = long(g * p.group + within % rows_in_group) * TR;
  const long c0 = long(within / rows_in_group) * TCB;

  // Stage: row i's chunks, consecutive lanes on consecutive chunks of a row.
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int load_tasks = TR * p.in_chunks;
  for (int t = threadIdx.x; t < load_tasks; t += THREADS) {
    const int i = t / p.in_chunks, k = t - i * p.in_chunks;
    const long r = r0 + i;
    if (r >= p.rows) continue;
    const long start = r * p.in_pitch + c0;
    const long end = r * p.in_pitch + min(c0 + TCB, p.cols);
    const long a = (start & ~15L) + 16L * k;
    if (a < end) copy_async_16(base + 16u * t, p.in + a);
  }
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncthreads();

  // Write: TCB output rows, TR / 16 chunks each, from the chunk holding the window's start.
  constexpr int OUT_CHUNKS = TR / 16;
  const int staged = load_tasks;
  for (int t = threadIdx.x; t < TCB * OUT_CHUNKS; t += THREADS) {
    const int jj = t / OUT_CHUNKS, k = t - jj * OUT_CHUNKS;
    const long j = c0 + jj;
    if (j >= p.cols || r0 + 16L * k >= p.rows) continue;
    const long a = ((j * p.out_pitch + r0) & ~15L) + 16L * k;
    const uint4 v = reinterpret_cast<const uint4*>(smem)[(t * 7) % staged];
    *reinterpret_cast<uint4*>(p.out + a) = v;
  }
}

struct Config {
  int tr, tcb;
  void (*kernel)(Params);
};

#define CONFIG(TR, TCB) Config{TR, TCB, pattern_kernel<TR, TCB, 512>}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const Shape shapes[] = {
      {"8192x8192", 8192, 8192, 8192, 8192},
      {"8191x8192", 8191, 8192, 8192, 8191},
      {"8193x8192", 8193, 8192, 8192, 8193},
      {"8191x8193", 8191, 8193, 8193, 8191},
      {"8192x8193", 8192, 8193, 8193, 8192},
      {"8192x8209[:,:-17]", 8192, 8192, 8209, 8192},
      {"8192x8177", 8192, 8177, 8177, 8192},
      {"16384x16383", 16384, 16383, 16383, 16384},
  };
  const Config configs[] = {CONFIG(128, 256), CONFIG(256, 128), CONFIG(128, 128),
                            CONFIG(256, 256), CONFIG(64, 512),  CONFIG(512, 64),
                            CONFIG(64, 256),  CONFIG(256, 64),  CONFIG(128, 512),
                            CONFIG(512, 128), CONFIG(32, 1024), CONFIG(1024, 32)};
  const int blocks_per_sm[] = {2, 3, 4};
  constexpr int ROT = 4, WARM = 2, REPS = 30;

  long max_in = 0, max_out = 0;
  for (const Shape& s : shapes) {
    max_in = std::max(max_in, s.rows * s.in_pitch);
    max_out = std::max(max_out, s.cols * s.out_pitch);
  }
  std::vector<char*> ins(ROT), outs(ROT);
  for (int i = 0; i < ROT; ++i) {
    CHECK(cudaMalloc(&ins[i], max_in + 4096));
    CHECK(cudaMalloc(&outs[i], max_out + 4096));
    CHECK(cudaMemset(ins[i], 0x5a + i, max_in + 4096));
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int smem_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::printf("device %s, %d SMs, %d B shared memory per SM\n", prop.name,
              prop.multiProcessorCount, smem_per_sm);

  auto time_reps = [&](auto launch) {
    std::vector<float> ms;
    for (int rep = 0; rep < (WARM + REPS) * ROT; ++rep) {
      CHECK(cudaEventRecord(e0));
      launch(rep % ROT);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float t;
      CHECK(cudaEventElapsedTime(&t, e0, e1));
      if (rep >= WARM * ROT) ms.push_back(t);
    }
    return median(ms);
  };

  std::printf("%-18s %5s %5s %4s %6s %9s %7s\n", "shape", "TR", "TCB", "bpsm", "walk", "us",
              "x_copy");
  for (const Shape& s : shapes) {
    const long bytes = s.rows * s.cols;
    auto copy = [&](int i) { CHECK(cudaMemcpyAsync(outs[i], ins[i], bytes, cudaMemcpyDeviceToDevice)); };
    const float copy_before = time_reps(copy);
    struct Row { int tr, tcb, bpsm, group; float ms; };
    std::vector<Row> rows;
    for (const Config& c : configs) {
      for (int bpsm : blocks_per_sm) {
        const int in_chunks = c.tcb / 16 + (s.in_pitch % 16 != 0);
        const int staging = c.tr * in_chunks * 16;
        int smem = smem_per_sm / bpsm - 1024;
        if (smem < staging) continue;  // this tile cannot run that many blocks
        smem = std::min(smem, static_cast<int>(prop.sharedMemPerBlockOptin));
        CHECK(cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        int active = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, c.kernel, 512, smem));
        if (active != bpsm) continue;
        Params p{};
        p.rows = s.rows;
        p.cols = s.cols;
        p.in_pitch = s.in_pitch;
        p.out_pitch = s.out_pitch;
        p.tiles_r = static_cast<int>((s.rows + c.tr - 1) / c.tr);
        p.tiles_c = static_cast<int>((s.cols + c.tcb - 1) / c.tcb);
        p.in_chunks = in_chunks;
        const int tiles = p.tiles_r * p.tiles_c;
        for (int group : {p.tiles_r, 1, 4}) {
          p.group = group;
          auto launch = [&](int i) {
            Params q = p;
            q.in = ins[i];
            q.out = outs[i];
            c.kernel<<<tiles, 512, smem>>>(q);
            CHECK(cudaGetLastError());
          };
          rows.push_back({c.tr, c.tcb, bpsm, group == p.tiles_r ? 0 : group, time_reps(launch)});
        }
      }
    }
    const float copy_after = time_reps(copy);
    const float copy_ms = std::min(copy_before, copy_after);
    std::printf("%-18s copy %.2f us (before %.2f, after %.2f)\n", s.name, 1e3f * copy_ms,
                1e3f * copy_before, 1e3f * copy_after);
    for (const Row& r : rows) {
      char walk[16];
      if (r.group == 0) std::snprintf(walk, sizeof walk, "column");
      else std::snprintf(walk, sizeof walk, "g%d", r.group);
      std::printf("%-18s %5d %5d %4d %6s %9.2f %7.3f\n", s.name, r.tr, r.tcb, r.bpsm, walk,
                  1e3f * r.ms, r.ms / copy_ms);
    }
    std::fflush(stdout);
  }
  return 0;
}
