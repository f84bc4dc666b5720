"""GPU time per call of small shapes, with the GPU's queue kept full.

bench_transpose.py times small shapes host-inclusive, as a model that waits on
each call sees them: there the host's work per call (several us) hides most kernels. A stream of calls that the host queues ahead of the
GPU (a training step, a CUDA graph) pays the GPU's time alone. This script
measures that: a sleep kernel queued first keeps the GPU busy while the host
queues `--reps` calls, and two events time the calls back to back; the host's
time per call, spent queueing them while the GPU sleeps, is taken beside it
(`*_host_us`: what a launch-bound model pays per call, the GPU aside). The
implementations are gputranspose, ATen, cuBLAS geam where it applies
(benchmarks/peers) and a same-shape copy. Each implementation is timed in `--rounds` rounds that visit every implementation in
turn (median of the rounds); inputs rotate over 4x the L2 cache; each output is
checked against ATen first.

    python benchmarks/gpu_time_small.py [--dtypes ...] [--shapes 1024x1024 ...] [--out FILE.json]
"""

import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_transpose import (DTYPES, SHAPES, check_against_aten, environment,  # noqa: E402
                             rotated_inputs, timed_functions)
from peers import load_cublas_peer  # noqa: E402

SMALL_SHAPES = [name for name, entry in SHAPES.items() if entry[2] == "small"]


def parse_shape(name):
    return tuple(int(s) for s in name.split("x"))


def us_per_call(fn, inputs, reps):
    """(GPU time, host time) per call, in us."""
    fn(inputs[0])
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(40_000 * reps)  # about 20 us per call: the host stays ahead
    start.record()
    host_start = time.perf_counter()
    for i in range(reps):
        fn(inputs[i % len(inputs)])
    host_s = time.perf_counter() - host_start
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps * 1000, host_s / reps * 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtypes", nargs="+", default=list(DTYPES), choices=list(DTYPES))
    parser.add_argument("--shapes", nargs="+", default=SMALL_SHAPES)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-cublas", action="store_true", help="skip cuBLAS geam (no build)")
    parser.add_argument("--out", help="JSON file for the rows and the environment")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("No CUDA GPU found: this benchmark times CUDA kernels and needs one.", file=sys.stderr)
        return 2
    import torch_transpose  # noqa: F401  (registers torch.ops.gputranspose)

    cublas = None if args.no_cublas else load_cublas_peer()
    rows = []
    for dtype_name in args.dtypes:
        dtype = DTYPES[dtype_name]
        for shape_name in args.shapes:
            shape = parse_shape(shape_name)
            inputs = rotated_inputs(shape, dtype, None)
            probe = inputs[0]
            nbytes = probe.numel() * probe.element_size()
            fns = timed_functions(probe, cublas=cublas)
            check_against_aten(fns, probe, f"{dtype_name} {shape_name}")
            gpu = {name: [] for name in fns}
            host = {name: [] for name in fns}
            for _ in range(args.rounds):
                for name, fn in fns.items():
                    gpu_us, host_us = us_per_call(fn, inputs, args.reps)
                    gpu[name].append(gpu_us)
                    host[name].append(host_us)
            row = {"dtype": dtype_name, "shape": shape_name, "bytes": nbytes}
            row.update({f"{name}_us": statistics.median(v) for name, v in gpu.items()})
            row.update({f"{name}_host_us": statistics.median(v) for name, v in host.items()})
            row["ours_over_copy"] = row["gputranspose_us"] / row["copy_us"]
            rows.append(row)
            peers = "  ".join(f"{name} {row[f'{name}_us']:6.2f}" for name in fns if name != "gputranspose")
            hosts = "  ".join(f"{name} {row[f'{name}_host_us']:5.2f}" for name in fns)
            print(f"{dtype_name:14s} {shape_name:12s} gputranspose {row['gputranspose_us']:6.2f} us  "
                  f"{peers}  ours/copy {row['ours_over_copy']:.3f}  | host us: {hosts}", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"environment": environment(),
                       "reps": args.reps, "rounds": args.rounds, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
