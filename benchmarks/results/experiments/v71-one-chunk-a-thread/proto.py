"""v71 prototype: an aligned 1-byte transpose of one 16-byte output chunk a thread.

v70's copy kernels: one 16-byte chunk a thread, 1024 threads and a block barrier between
the loads and the stores, ran at 0.993x torch's copy; eight chunks a thread (256 threads,
the product's aligned 1-byte kernel's count) at 1.03x. This kernel takes 128 x 128 tiles
(16 KiB) at 1024 threads (and 128 x 256 tiles, two micro-blocks and chunks a thread, 256-byte input runs, call 6): each thread loads a 4 x 4 byte micro-block (four 32-bit words,
one a row; a warp's load is one 128-byte line), transposes it with eight byte permutes,
stores four words to the output tile in shared memory (swizzled: no bank conflicts on
either side), and after the barrier stores one 16-byte chunk (a warp: four whole lines).
Tiles walk down whole columns, as the product's do. Compared in one process with the
product (torch.ops.gputranspose.transpose, built from this tree), each output checked
against ATen. Run on the GPU machine after building the product:
    PYTHONPATH=$PWD python3 benchmarks/results/experiments/v71-one-chunk-a-thread/proto.py
"""
import statistics
import sys

import torch
from torch.utils.cpp_extension import load_inline

import torch_transpose  # noqa: F401  (registers torch.ops.gputranspose)

CUDA = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
  return r;
}

template <bool EL, int TC>
__global__ void __launch_bounds__(1024, 2) one_chunk_transpose(const uint8_t* __restrict__ in,
    uint8_t* __restrict__ out, int64_t rows, int64_t cols, int tiles_r) {
  constexpr int N = TC / 128;  // micro-blocks (and output chunks) a thread
  __shared__ uint32_t tile[TC * 32];  // output rows (input columns) x 32 words (input rows)
  const int t = threadIdx.x;
  const int tr = blockIdx.x % tiles_r, tc = blockIdx.x / tiles_r;
  const int64_t r0 = int64_t(tr) * 128, c0 = int64_t(tc) * TC;
  const int j = t & 31, i = t >> 5;  // column word j (+ 32 n), rows 4i..4i+3
  const uint32_t* src = reinterpret_cast<const uint32_t*>(in + (r0 + 4 * i) * cols + c0) + j;
  const int64_t step = cols / 4;
  uint32_t a[N][4];
  uint64_t policy;
  if (EL) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#pragma unroll
  for (int k = 0; k < 4; ++k) {
#pragma unroll
    for (int n = 0; n < N; ++n) {
      if (EL) {
        asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(a[n][k]) : "l"(src + k * step + 32 * n), "l"(policy));
      } else {
        a[n][k] = src[k * step + 32 * n];
      }
    }
  }
#pragma unroll
  for (int n = 0; n < N; ++n) {
    const uint32_t t0 = prmt(a[n][0], a[n][1], 0x5140), t1 = prmt(a[n][0], a[n][1], 0x7362);
    const uint32_t t2 = prmt(a[n][2], a[n][3], 0x5140), t3 = prmt(a[n][2], a[n][3], 0x7362);
    const uint32_t o[4] = {prmt(t0, t2, 0x5410), prmt(t0, t2, 0x7632), prmt(t1, t3, 0x5410),
                           prmt(t1, t3, 0x7632)};
#pragma unroll
    for (int b = 0; b < 4; ++b) {  // output row 4(j + 32n) + b, word i, swizzled by (row >> 2) ^ (row & 3)
      const int orow = 4 * (j + 32 * n) + b;
      tile[orow * 32 + (i ^ (((orow >> 2) ^ (orow & 3)) & 31))] = o[b];
    }
  }
  __syncthreads();
#pragma unroll
  for (int n = 0; n < N; ++n) {
    const int orow = (t >> 3) + 128 * n, u = t & 7;
    const int s = ((orow >> 2) ^ (orow & 3)) & 31;
    uint4 v;
    v.x = tile[orow * 32 + ((4 * u + 0) ^ s)];
    v.y = tile[orow * 32 + ((4 * u + 1) ^ s)];
    v.z = tile[orow * 32 + ((4 * u + 2) ^ s)];
    v.w = tile[orow * 32 + ((4 * u + 3) ^ s)];
    *reinterpret_cast<uint4*>(out + (c0 + orow) * rows + r0 + 16 * u) = v;
  }
}

torch::Tensor transpose(torch::Tensor x, int64_t evict_last, int64_t tc) {
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.element_size() == 1 && x.size(0) % 128 == 0 &&
              x.size(1) % tc == 0, "prototype: contiguous 1-byte matrices of tile multiples");
  auto out = torch::empty({x.size(1), x.size(0)}, x.options());
  const int tiles_r = x.size(0) / 128, tiles = tiles_r * (x.size(1) / tc);
  auto s = c10::cuda::getCurrentCUDAStream();
  auto* a = reinterpret_cast<const uint8_t*>(x.data_ptr());
  auto* b = reinterpret_cast<uint8_t*>(out.data_ptr());
  if (tc == 256) {
    if (evict_last) one_chunk_transpose<true, 256><<<tiles, 1024, 0, s>>>(a, b, x.size(0), x.size(1), tiles_r);
    else one_chunk_transpose<false, 256><<<tiles, 1024, 0, s>>>(a, b, x.size(0), x.size(1), tiles_r);
  } else {
    if (evict_last) one_chunk_transpose<true, 128><<<tiles, 1024, 0, s>>>(a, b, x.size(0), x.size(1), tiles_r);
    else one_chunk_transpose<false, 128><<<tiles, 1024, 0, s>>>(a, b, x.size(0), x.size(1), tiles_r);
  }
  return out;
}
"""
CPP = "torch::Tensor transpose(torch::Tensor x, int64_t evict_last, int64_t tc);"


def main():
    ext = load_inline("one_chunk_proto2", CPP, cuda_sources=CUDA, functions=["transpose"],
                      extra_cuda_cflags=["-O3", "-gencode=arch=compute_90,code=sm_90", "-Xptxas=-v"])
    print(torch.cuda.get_device_name(), torch.__version__, flush=True)
    shapes = [(8192, 8192), (16384, 16384), (4096, 32768), (32768, 4096), (2048, 2048 * 32), (4096, 4096)]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    for rows, cols in shapes:
        nbytes = rows * cols
        xs = [torch.randint(0, 256, (rows, cols), dtype=torch.uint8, device="cuda")
              for _ in range(max(2, -(-4 * l2 // nbytes)))]
        fns = {"copy": lambda x: torch.empty_like(x).copy_(x),
               "product": torch.ops.gputranspose.transpose,
               "proto": lambda x: ext.transpose(x, 0, 128),
               "proto EL": lambda x: ext.transpose(x, 1, 128),
               "proto256": lambda x: ext.transpose(x, 0, 256),
               "proto256 EL": lambda x: ext.transpose(x, 1, 256)}
        expected = xs[0].t().contiguous()
        for name, fn in fns.items():
            if name != "copy":
                assert torch.equal(fn(xs[0]), expected), name
        times = {k: [] for k in fns}
        for rnd in range(5):
            for name, fn in fns.items():
                torch.cuda._sleep(2_000_000)
                ev = [torch.cuda.Event(enable_timing=True) for _ in range(2 * 30)]
                for n in range(30):
                    ev[2 * n].record(); fn(xs[n % len(xs)]); ev[2 * n + 1].record()
                torch.cuda.synchronize()
                times[name] += [ev[2 * n].elapsed_time(ev[2 * n + 1]) for n in range(30)]
        med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        print(f"uint8 {rows}x{cols}: " + "  ".join(f"{k} {v:7.2f} us {v / med['copy']:.3f}x" for k, v in med.items())
              + "   " + "  ".join(f"{k}/product {100 * (med[k] / med['product'] - 1):+.1f}%"
                              for k in med if k.startswith("proto")), flush=True)
        del xs
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
