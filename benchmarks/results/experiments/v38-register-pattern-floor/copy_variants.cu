// What a copy kernel needs to run as fast as cudaMemcpy (v38, call 4). At 64 MiB a plain
// copy kernel (16 bytes a lane, 4 a thread, ld.global/st.global) took 37.1 us where
// cudaMemcpy took 35.2 (calls 1-2): the transposes' denominator is faster than the
// simplest kernel that moves the same bytes. Each variant changes one thing; all are
// timed in rounds with cudaMemcpy on the same rotated buffers (CUDA events, median).
// Standalone: nvcc -O3 -arch=sm_90 -std=c++17 copy_variants.cu -o copy_variants
#include "event_timer.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

// Loads: 0 plain, 1 .nc (read-only path), 2 .cg, 3 L2 evict_last, 4 L2 evict_first,
//        5 .L1::no_allocate.
// Stores: 0 plain, 1 .cs (streaming, evict-first), 2 L2 evict_last, 3 .cg.
template <int LD>
__device__ __forceinline__ uint4 load(const uint4* p, uint64_t pol) {
  uint4 v;
  if constexpr (LD == 0)
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else if constexpr (LD == 1)
    asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else if constexpr (LD == 2)
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else if constexpr (LD == 3 || LD == 4)
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
  else
    asm volatile("ld.global.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
template <int ST>
__device__ __forceinline__ void store(uint4* p, uint4 v, uint64_t pol) {
  if constexpr (ST == 0)
    asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
  else if constexpr (ST == 1)
    asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
  else if constexpr (ST == 2)
    asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(pol) : "memory");
  else
    asm volatile("st.global.cg.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

// PER chunks a thread, THREADS a block; GRID_STRIDE: blocks loop over the buffer.
template <int THREADS, int PER, int LD, int ST, bool GRID_STRIDE>
__global__ void __launch_bounds__(THREADS) copy(const uint4* in, uint4* out, long n) {
  uint64_t lpol = 0, spol = 0;
  if constexpr (LD == 3) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(lpol));
  if constexpr (LD == 4) asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(lpol));
  if constexpr (ST == 2) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(spol));
  const long step = GRID_STRIDE ? long(gridDim.x) * THREADS * PER : 0;
  for (long base = long(blockIdx.x) * THREADS * PER + threadIdx.x; base < n; base += step) {
    uint4 v[PER];
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      const long i = base + long(q) * THREADS;
      if (i < n) v[q] = load<LD>(in + i, lpol);
    }
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      const long i = base + long(q) * THREADS;
      if (i < n) store<ST>(out + i, v[q], spol);
    }
    if (!GRID_STRIDE) break;
  }
}

constexpr int REPS = 50;

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  for (long bytes : {64L << 20, 256L << 20, 1024L << 20}) {
    std::vector<uint4*> in(NBUF), out(NBUF);
    for (int k = 0; k < NBUF; ++k) {
      CHECK(cudaMalloc(&in[k], bytes));
      CHECK(cudaMalloc(&out[k], bytes));
      CHECK(cudaMemset(in[k], 0x5a + k, bytes));
    }
    const long n = bytes / 16;
    const int sms = prop.multiProcessorCount;
    struct Variant {
      const char* name;
      std::function<void(int)> run;
    };
#define ONE_SHOT(T, P, LD, ST)                                                     \
  [&](int k) { copy<T, P, LD, ST, false><<<int((n + T * P - 1) / (T * P)), T>>>(in[k], out[k], n); }
#define STRIDED(T, P, LD, ST, BPSM)                                                \
  [&](int k) { copy<T, P, LD, ST, true><<<sms * BPSM, T>>>(in[k], out[k], n); }
    std::vector<Variant> variants = {
        {"cudaMemcpy", [&](int k) { CHECK(cudaMemcpyAsync(out[k], in[k], bytes, cudaMemcpyDeviceToDevice)); }},
        {"512x4 plain", ONE_SHOT(512, 4, 0, 0)},
        {"512x8 plain", ONE_SHOT(512, 8, 0, 0)},
        {"256x4 plain", ONE_SHOT(256, 4, 0, 0)},
        {"256x8 plain", ONE_SHOT(256, 8, 0, 0)},
        {"128x8 plain", ONE_SHOT(128, 8, 0, 0)},
        {"512x1 plain", ONE_SHOT(512, 1, 0, 0)},
        {"512x4 ld.nc", ONE_SHOT(512, 4, 1, 0)},
        {"512x4 ld.cg", ONE_SHOT(512, 4, 2, 0)},
        {"512x4 ld evict_last", ONE_SHOT(512, 4, 3, 0)},
        {"512x4 ld evict_first", ONE_SHOT(512, 4, 4, 0)},
        {"512x4 ld L1::no_allocate", ONE_SHOT(512, 4, 5, 0)},
        {"512x4 st.cs", ONE_SHOT(512, 4, 0, 1)},
        {"512x4 st evict_last", ONE_SHOT(512, 4, 0, 2)},
        {"512x4 st.cg", ONE_SHOT(512, 4, 0, 3)},
        {"512x4 ld.nc st.cs", ONE_SHOT(512, 4, 1, 1)},
        {"512x4 strided 4/SM", STRIDED(512, 4, 0, 0, 4)},
        {"512x4 strided 2/SM", STRIDED(512, 4, 0, 0, 2)},
        {"256x4 strided 8/SM", STRIDED(256, 4, 0, 0, 8)},
        {"1024x4 strided 2/SM", STRIDED(1024, 4, 0, 0, 2)},
        {"512x8 strided 4/SM", STRIDED(512, 8, 0, 0, 4)},
    };
    for (int round = 0; round < 3; ++round) {
      float memcpy_us = 0;
      for (auto& v : variants) {
        const float us = median_us(REPS, v.run);
        if (&v == &variants[0]) memcpy_us = us;
        std::printf("%5ld MiB round %d %-26s %8.2f us %6.3f x cudaMemcpy %7.0f GB/s\n", bytes >> 20,
                    round, v.name, us, us / memcpy_us, 2.0 * bytes / us / 1e3);
      }
    }
    for (int k = 0; k < NBUF; ++k) {
      CHECK(cudaFree(in[k]));
      CHECK(cudaFree(out[k]));
    }
  }
  return 0;
}
