"""v70 probe 2: what a copy kernel shaped like a transpose tile costs against torch's copy.

Copy kernels over contiguous bytes, blocks in address order, each thread loading ITEMS
16-byte chunks (THREADS x 16 bytes apart) before storing them, with or without a block
barrier between the loads and the stores (a tile's barrier), plain or at L2 evict_last
(no release). v38 found one chunk a thread at cudaMemcpy's speed and four or eight a
thread 4-6% slower; the question here is whether the tile's barrier, at one chunk a
thread, keeps the first or costs the second. Run on the GPU machine:
    python3 benchmarks/results/experiments/v70-tlb-probe/copy_shapes.py
"""
import statistics
import sys

import torch
from torch.utils.cpp_extension import load_inline

VARIANTS = [  # name, threads, items, barrier, evict_last
    ("t256x1", 256, 1, 0, 0), ("t1024x1", 1024, 1, 0, 0), ("t1024x1 sync", 1024, 1, 1, 0),
    ("t1024x2 sync", 1024, 2, 1, 0), ("t256x8", 256, 8, 0, 0), ("t256x8 sync", 256, 8, 1, 0),
    ("t1024x1 sync EL", 1024, 1, 1, 1), ("t256x8 sync EL", 256, 8, 1, 1),
]

CUDA = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>
template <int THREADS, int ITEMS, bool SYNC, bool EL>
__global__ void __launch_bounds__(THREADS) shaped_copy(const uint4* __restrict__ src, uint4* __restrict__ dst) {
  const int64_t base = int64_t(blockIdx.x) * THREADS * ITEMS + threadIdx.x;
  uint4 v[ITEMS];
  uint64_t policy;
  if (EL) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const uint4* p = src + base + i * THREADS;
    if (EL) {
      asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                   : "=r"(v[i].x), "=r"(v[i].y), "=r"(v[i].z), "=r"(v[i].w) : "l"(p), "l"(policy));
    } else {
      v[i] = *p;
    }
  }
  if (SYNC) __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) dst[base + i * THREADS] = v[i];
}
void launch(torch::Tensor src, torch::Tensor dst, int64_t variant) {
  const int64_t n16 = src.numel() / 16;
  auto s = c10::cuda::getCurrentCUDAStream();
  auto* a = reinterpret_cast<const uint4*>(src.data_ptr());
  auto* b = reinterpret_cast<uint4*>(dst.data_ptr());
  switch (variant) {
#define CASE(K, T, I, S, E) case K: shaped_copy<T, I, S, E><<<n16 / (T * I), T, 0, s>>>(a, b); break;
    CASE(0, 256, 1, 0, 0) CASE(1, 1024, 1, 0, 0) CASE(2, 1024, 1, 1, 0) CASE(3, 1024, 2, 1, 0)
    CASE(4, 256, 8, 0, 0) CASE(5, 256, 8, 1, 0) CASE(6, 1024, 1, 1, 1) CASE(7, 256, 8, 1, 1)
  }
}
"""
CPP = "void launch(torch::Tensor src, torch::Tensor dst, int64_t variant);"


def main():
    ext = load_inline("copy_shapes", CPP, cuda_sources=CUDA, functions=["launch"],
                      extra_cuda_cflags=["-O3", "-gencode=arch=compute_90,code=sm_90"])
    print(torch.cuda.get_device_name(), torch.__version__, flush=True)
    for mib in (64, 256):
        nbytes = mib << 20
        srcs = [torch.randint(0, 256, (nbytes,), dtype=torch.uint8, device="cuda") for _ in range(max(2, 256 // mib))]
        dst = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        fns = {"torch copy": lambda s: dst.copy_(s)}
        for k, (name, *_) in enumerate(VARIANTS):
            fns[name] = (lambda k: lambda s: ext.launch(s, dst, k))(k)
        for name, fn in fns.items():
            dst.zero_(); fn(srcs[0]); torch.cuda.synchronize()
            assert torch.equal(dst, srcs[0]), name
        times = {k: [] for k in fns}
        for rnd in range(5):
            for name, fn in fns.items():
                torch.cuda._sleep(2_000_000)
                ev = [torch.cuda.Event(enable_timing=True) for _ in range(41)]
                for i in range(40):
                    ev[i].record(); fn(srcs[i % len(srcs)])
                ev[40].record()
                torch.cuda.synchronize()
                times[name] += [ev[i].elapsed_time(ev[i + 1]) for i in range(40)]
        base = statistics.median(times["torch copy"])
        for k, v in times.items():
            print(f"{mib:5d} MiB  {k:18s} {statistics.median(v) * 1e3:8.1f} us {statistics.median(v) / base:.3f}x", flush=True)
        del srcs, dst
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
