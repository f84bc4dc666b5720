// v35 access-pattern oracle for skewed 1-byte tiles: how fast the memory system serves
// the reads and writes of a staged, skewed transpose alone (no transposing work; the
// output is garbage on purpose), for output windows aligned to A = 16, 32, 64 or 128
// bytes. As the real skewed kernel: tile-row t writes output bytes [t*STEP, t*STEP +
// STEP) of each output row (STEP = TR - A), each row's window slid down to an A-aligned
// address, so it stages input rows [t*STEP - A, t*STEP - A + TR) (LEAD = A rows
// re-read), the aligned 16-byte chunks holding TCB bytes of each (cp.async.cg, L2::256B).
// v33's oracle (../v33-cut-micro-blocks/call1-access-patterns/) had A = 16 and no LEAD.
// Element size E (1 or 2): a tile is TR element rows x TCB bytes; it writes TCB / E
// output rows of STEP = TR - A / E elements each. Standalone: nvcc -O3 -arch=sm_90
// -std=c++17 skew_oracle.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

struct Shape {
  const char* name;
  int e;                                 // element size
  long rows, cols, in_pitch, out_pitch;  // elements (pitches too)
};

struct Params {
  const char* in;
  char* out;
  long rows, cols, in_pitch, out_pitch, out_bytes;  // elements (out_bytes: bytes)
  int tiles_r, tiles_c;
  int in_chunks;
};

__device__ __forceinline__ void copy_async_16(unsigned dst, const char* src) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(dst), "l"(src)
               : "memory");
}

template <int E, int TR, int TCB, int A, int THREADS>
__global__ void __launch_bounds__(THREADS) skew_kernel(Params p) {
  extern __shared__ __align__(16) char smem[];
  constexpr int LEAD = A / E, STEP = TR - LEAD, TC = TCB / E;
  const int b = blockIdx.x;  // down a column of tiles, then across
  const long tr = b % p.tiles_r;
  const long c0 = long(b / p.tiles_r) * TC;
  const long s0 = tr * STEP;  // first output byte of each output row written
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int load_tasks = TR * p.in_chunks;
  for (int t = threadIdx.x; t < load_tasks; t += THREADS) {
    const int i = t / p.in_chunks, k = t - i * p.in_chunks;
    const long r = s0 - LEAD + i;
    if (r < 0 || r >= p.rows) continue;
    const long start = (r * p.in_pitch + c0) * E;
    const long end = (r * p.in_pitch + min(c0 + TC, p.cols)) * E;
    const long a = (start & ~15L) + 16L * k;
    if (a < end) copy_async_16(base + 16u * t, p.in + a);
  }
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncthreads();
  constexpr int OUT_CHUNKS = STEP * E / 16;
  for (int t = threadIdx.x; t < TC * OUT_CHUNKS; t += THREADS) {
    const int jj = t / OUT_CHUNKS, k = t - jj * OUT_CHUNKS;
    const long j = c0 + jj;
    if (j >= p.cols || (s0 + LEAD) * E + 16L * k >= (p.rows + LEAD) * E) continue;
    const long a = (((j * p.out_pitch + s0) * E) & ~long(A - 1)) + 16L * k;
    if (a + 16 > p.out_bytes) continue;
    const uint4 v = reinterpret_cast<const uint4*>(smem)[(t * 7) % load_tasks];
    *reinterpret_cast<uint4*>(p.out + a) = v;
  }
}

struct Config {
  int e, tr, tcb, a;
  void (*kernel)(Params);
};

#define CONFIG(E, TR, TCB, A) Config{E, TR, TCB, A, skew_kernel<E, TR, TCB, A, 512>}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const Shape shapes[] = {
      {"u8-8192x8192", 1, 8192, 8192, 8192, 8192},
      {"u8-8191x8193", 1, 8191, 8193, 8193, 8191},
      {"u8-8191x8192", 1, 8191, 8192, 8192, 8191},
      {"u8-8193x8192", 1, 8193, 8192, 8192, 8193},
      {"bf16-8192x8192", 2, 8192, 8192, 8192, 8192},
      {"bf16-8191x8193", 2, 8191, 8193, 8193, 8191},
      {"bf16-8191x8192", 2, 8191, 8192, 8192, 8191},
  };
  const Config configs[] = {
      CONFIG(1, 256, 128, 16),  CONFIG(1, 256, 128, 32),  CONFIG(1, 256, 256, 16),
      CONFIG(1, 256, 256, 32),  CONFIG(1, 512, 128, 32),  CONFIG(1, 512, 128, 64),
      CONFIG(1, 512, 128, 128), CONFIG(1, 512, 64, 32),   CONFIG(1, 1024, 64, 128),
      CONFIG(1, 1024, 128, 128), CONFIG(1, 512, 256, 64), CONFIG(1, 128, 256, 16),
      CONFIG(2, 128, 256, 32),  CONFIG(2, 256, 256, 32),  CONFIG(2, 128, 512, 32),
      CONFIG(2, 256, 128, 32),  CONFIG(2, 128, 256, 64),  CONFIG(2, 256, 256, 64),
      CONFIG(2, 64, 512, 32),   CONFIG(2, 256, 512, 32),  CONFIG(2, 128, 256, 16)};
  constexpr int ROT = 4, WARM = 2, REPS = 30;
  long max_bytes = 0;
  for (const Shape& s : shapes)
    max_bytes = std::max({max_bytes, s.e * s.rows * s.in_pitch, s.e * s.cols * s.out_pitch});
  std::vector<char*> ins(ROT), outs(ROT);
  for (int i = 0; i < ROT; ++i) {
    CHECK(cudaMalloc(&ins[i], max_bytes + 4096));
    CHECK(cudaMalloc(&outs[i], max_bytes + 4096));
    CHECK(cudaMemset(ins[i], 0x5a + i, max_bytes + 4096));
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int smem_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
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
  std::printf("%-14s %5s %5s %4s %4s %9s %7s\n", "shape", "TR", "TCB", "A", "bpsm", "us", "x_copy");
  for (const Shape& s : shapes) {
    const long bytes = s.e * s.rows * s.cols;
    auto copy = [&](int i) { CHECK(cudaMemcpyAsync(outs[i], ins[i], bytes, cudaMemcpyDeviceToDevice)); };
    const float copy_ms = time_reps(copy);
    std::printf("%-14s copy %.2f us\n", s.name, 1e3f * copy_ms);
    for (const Config& c : configs) {
      if (c.e != s.e) continue;
      for (int bpsm : {1, 2, 3, 4}) {
        const int in_chunks = c.tcb / 16 + 1;
        const int staging = c.tr * in_chunks * 16;
        int smem = smem_per_sm / bpsm - 1024;
        if (smem < staging) continue;
        smem = std::min(smem, static_cast<int>(prop.sharedMemPerBlockOptin));
        if (smem < staging) continue;
        CHECK(cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        int active = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, c.kernel, 512, smem));
        if (active != bpsm) continue;
        Params p{};
        p.rows = s.rows;
        p.cols = s.cols;
        p.in_pitch = s.in_pitch;
        p.out_pitch = s.out_pitch;
        p.out_bytes = s.e * s.cols * s.out_pitch;
        const int step = c.tr - c.a / c.e;
        const int tc = c.tcb / c.e;
        p.tiles_r = static_cast<int>((s.rows + step - 1) / step);
        p.tiles_c = static_cast<int>((s.cols + tc - 1) / tc);
        p.in_chunks = in_chunks;
        const int tiles = p.tiles_r * p.tiles_c;
        auto launch = [&](int i) {
          Params q = p;
          q.in = ins[i];
          q.out = outs[i];
          c.kernel<<<tiles, 512, smem>>>(q);
          CHECK(cudaGetLastError());
        };
        const float ms = time_reps(launch);
        std::printf("%-14s %5d %5d %4d %4d %9.2f %7.3f\n", s.name, c.tr, c.tcb, c.a, bpsm, 1e3f * ms,
                    ms / copy_ms);
      }
    }
    std::fflush(stdout);
  }
  return 0;
}
