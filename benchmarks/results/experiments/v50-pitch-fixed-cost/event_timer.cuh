// The v38 probes' timing (reg_pattern.cu, copy_variants.cu): CUDA events around each
// rep, behind a head start, NBUF buffer sets rotated so that consecutive reps miss L2.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int NBUF = 3;  // buffer sets rotated (60 MB of L2; every probe's set is larger)

__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// Median of `reps` event-timed runs of f(k) (k the buffer set), after one warm-up run of
// each set and a ~2 ms spin that lets the host queue every rep ahead of the GPU.
inline float median_us(int reps, const std::function<void(int)>& f) {
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  for (int k = 0; k < NBUF; ++k) f(k);
  spin<<<1, 1>>>(4000000);
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(ev[2 * i]));
    f(i % NBUF);
    CHECK(cudaEventRecord(ev[2 * i + 1]));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t(reps);
  for (int i = 0; i < reps; ++i) CHECK(cudaEventElapsedTime(&t[i], ev[2 * i], ev[2 * i + 1]));
  for (auto& e : ev) CHECK(cudaEventDestroy(e));
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2] * 1000.f;
}
