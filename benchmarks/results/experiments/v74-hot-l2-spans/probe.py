"""v74 probe: does a tile's address span cost when no DRAM is involved?

v69 found the same kernel 1.013x the copy on batches of small uint8 matrices and
1.036-1.051x on one matrix of 64 MiB or more, and read it as where the traffic lies in
DRAM. A tile's span grows with the matrix too (128 input rows x the input pitch, 256
output rows x the output pitch: 256 KiB for a 2048^2 batch, 1-2 MiB for 8192^2, 8-16 MiB
for 65536 x 256), and so do the 2 MiB pages its blocks touch: address translation could
be the cost instead. This probe times the product on 16 MiB uint8 inputs of eight
shapes and pitches, hot (one input, over and over: input and output, 32 MiB, stay in
the H100's 50 MB L2) and cold (inputs rotated over 8 copies: 128 MiB), each against the
copy of a contiguous 16 MiB tensor timed the same way, as CUDA graphs of 16 calls
(one call takes about 12 us, less than the host needs to launch one). Predicted: if translation costs,
the hot ratios grow with the span as the cold ones do; if DRAM order does, the hot ones
stay level. Every output is checked byte for byte against ATen first.

    PYTHONPATH=$PWD python3 benchmarks/results/experiments/v74-hot-l2-spans/probe.py OUT.json
"""
import json
import statistics
import sys

import torch

import torch_transpose  # noqa: F401  (registers torch.ops.gputranspose)

MIB16 = 16 << 20
# name, batch, rows, cols, input pitch (bytes = elements for uint8)
CASES = [
    ("4 x 2048^2", 4, 2048, 2048, 2048),
    ("4096^2", 1, 4096, 4096, 4096),
    ("4096^2 of pitch 8320", 1, 4096, 4096, 8320),
    ("4096^2 of pitch 65664", 1, 4096, 4096, 65664),
    ("1024 x 16384", 1, 1024, 16384, 16384),
    ("16384 x 1024", 1, 16384, 1024, 1024),
    ("256 x 65536", 1, 256, 65536, 65536),
    ("65536 x 256", 1, 65536, 256, 256),
]
COPIES = 8
REPS = 50
ROUNDS = 5


def make(batch, rows, cols, pitch, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    base = torch.randint(0, 256, (batch, rows, pitch), dtype=torch.uint8, device="cuda", generator=g)
    x = base[:, :, :cols]
    return x[0] if batch == 1 else x


CALLS = 16  # calls a CUDA graph replays: 16 MiB takes ~12 us, under the host's launch time


def graph_ms(fn, inputs, outputs, reps):
    """Median over reps of a CUDA graph of CALLS calls fn(inputs[i], outputs[i]) in turn
    (one input and output: hot; several: cold), per call."""
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for i in range(3):
            fn(inputs[i % len(inputs)], outputs[i % len(outputs)])
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(CALLS):
            fn(inputs[i % len(inputs)], outputs[i % len(outputs)])
    for _ in range(3):
        graph.replay()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    torch.cuda.synchronize()
    for i in range(reps):
        starts[i].record()
        graph.replay()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) / CALLS


def transpose_into(x, out):
    torch.ops.gputranspose.transpose.out(x, -2, -1, out=out)


def copy_into(x, out):
    out.copy_(x)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "v74.json"
    dev = torch.cuda.get_device_properties(0)
    print(dev.name, torch.__version__, torch.version.cuda, flush=True)
    copies = [torch.randint(0, 256, (4096, 4096), dtype=torch.uint8, device="cuda") for _ in range(COPIES)]
    copy_outs = [torch.empty_like(c) for c in copies]
    rows = []
    for name, batch, r, c, pitch in CASES:
        xs = [make(batch, r, c, pitch, seed) for seed in range(COPIES)]
        for x in xs[:2]:
            got = torch.full(x.transpose(-2, -1).shape, 0x5A, dtype=x.dtype, device="cuda")  # poisoned
            torch.ops.gputranspose.transpose.out(x, -2, -1, out=got)
            want = x.transpose(-2, -1).contiguous()
            assert torch.equal(got, want), name
        outs = [torch.empty(x.transpose(-2, -1).shape, dtype=x.dtype, device="cuda") for x in xs]
        ratios = {"hot": [], "cold": []}
        times = {"hot": [], "cold": [], "copy_hot": [], "copy_cold": []}
        for _ in range(ROUNDS):
            for mode, n in (("hot", 1), ("cold", COPIES)):
                t = graph_ms(transpose_into, xs[:n], outs[:n], REPS)
                tc = graph_ms(copy_into, copies[:n], copy_outs[:n], REPS)
                times[mode].append(t)
                times["copy_" + mode].append(tc)
                ratios[mode].append(t / tc)
        row = {"case": name, "batch": batch, "rows": r, "cols": c, "pitch": pitch,
               "in_span_bytes": 128 * pitch, "out_span_bytes": 256 * r,
               **{f"{k}_ms": statistics.median(v) for k, v in times.items()},
               **{f"{k}_ratio": statistics.median(v) for k, v in ratios.items()},
               **{f"{k}_ratio_range": [min(v), max(v)] for k, v in ratios.items()}}
        rows.append(row)
        print(f"{name:24s} hot {row['hot_ms']*1e3:8.2f} us {row['hot_ratio']:.3f}x "
              f"({min(ratios['hot']):.3f}-{max(ratios['hot']):.3f})   cold {row['cold_ms']*1e3:8.2f} us "
              f"{row['cold_ratio']:.3f}x ({min(ratios['cold']):.3f}-{max(ratios['cold']):.3f})", flush=True)
        del xs, outs
    json.dump({"device": dev.name, "torch": torch.__version__, "cuda": torch.version.cuda,
               "l2_bytes": dev.L2_cache_size, "reps": REPS, "rounds": ROUNDS, "rows": rows},
              open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
