"""v70 probe: do GPU address-translation misses cost a transpose-like access pattern time?

A copy kernel whose blocks each copy 32 KiB (256 threads, eight 16-byte loads a thread,
every load before the stores, as the transpose's tiles do) as pieces of S bytes, each piece
at an offset from a table, to the same offsets of the output. The pieces' order sets how
many 2 MiB pages a block touches while each piece stays S contiguous bytes:
  seq     the blocks copy the buffer in order (one page every 64 blocks)
  chunks  whole 32 KiB chunks in a random order (one page a block, random)
  S=4096  a block's eight 4 KiB pieces from eight random places (eight pages a block)
  S=1024  32 random 1 KiB pieces a block
  S=256   128 random 256-byte pieces a block (a tile's input runs, but from anywhere)
If translation misses cost, `chunks` and the scattered pieces run slower than `seq` though
each piece is as long as a DRAM page needs. Run on the GPU machine:
    python3 benchmarks/results/experiments/v70-tlb-probe/tlb_probe.py
"""
import statistics
import sys

import torch
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>
__global__ void __launch_bounds__(256) piece_copy(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                                  const int64_t* __restrict__ table, int piece_log2) {
  const int pieces = 32768 >> piece_log2;
  uint4 v[8];
  int64_t at[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int byte = i * 4096 + threadIdx.x * 16;
    at[i] = (table[int64_t(blockIdx.x) * pieces + (byte >> piece_log2)] + (byte & ((1 << piece_log2) - 1))) / 16;
    v[i] = src[at[i]];
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) dst[at[i]] = v[i];
}
void launch(torch::Tensor src, torch::Tensor dst, torch::Tensor table, int64_t piece_log2, int64_t blocks) {
  piece_copy<<<blocks, 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      reinterpret_cast<const uint4*>(src.data_ptr()), reinterpret_cast<uint4*>(dst.data_ptr()),
      table.data_ptr<int64_t>(), int(piece_log2));
}
"""
CPP = "void launch(torch::Tensor src, torch::Tensor dst, torch::Tensor table, int64_t piece_log2, int64_t blocks);"


def tables(nbytes, gen):
    blocks = nbytes // 32768
    seq = torch.arange(blocks, dtype=torch.int64) * 32768
    out = {"seq": (seq, 15), "chunks": (seq[torch.randperm(blocks, generator=gen)], 15)}
    for log2 in (12, 10, 8):
        n = nbytes >> log2
        out[f"S={1 << log2}"] = (torch.randperm(n, generator=gen).to(torch.int64) << log2, log2)
    return {k: (t.cuda(), l) for k, (t, l) in out.items()}


def main():
    ext = load_inline("tlb_probe", CPP, cuda_sources=CUDA, functions=["launch"], verbose=False,
                      extra_cuda_cflags=["-O3", "-gencode=arch=compute_90,code=sm_90"])
    print(torch.cuda.get_device_name(), torch.__version__, flush=True)
    gen = torch.Generator().manual_seed(0)
    for mib in (64, 256, 1024):
        nbytes = mib << 20
        srcs = [torch.randint(0, 256, (nbytes,), dtype=torch.uint8, device="cuda") for _ in range(max(2, 256 // mib))]
        dst = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        cases = tables(nbytes, gen)
        fns = {"torch copy": lambda s: dst.copy_(s)}
        for name, (table, log2) in cases.items():
            fns[name] = (lambda t, l: lambda s: ext.launch(s, dst, t, l, nbytes // 32768))(table, log2)
        for name, fn in fns.items():  # every variant copies every byte
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
                # each rep between its own events: a start event per rep
                times[name] += [ev[i].elapsed_time(ev[i + 1]) for i in range(40)]
        base = statistics.median(times["torch copy"])
        line = " ".join(f"{k} {statistics.median(v) * 1e3:8.1f} us {statistics.median(v) / base:.3f}x"
                        for k, v in times.items())
        print(f"{mib:5d} MiB  {line}", flush=True)
        del srcs, dst
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
