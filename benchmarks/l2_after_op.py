"""Does gputranspose leave L2 as a copy leaves it?

The aligned kernels and the wide-element kernel read inputs larger than L2 at L2
priority evict_last and set each line back to evict_normal once used
(docs/PERFORMANCE.md): lines left at evict_last would crowd the next kernel's data
out of L2. This times what the
next kernel would feel: after each op (gputranspose or a same-shape copy), a
24 MB buffer (it fits the 50-60 MB L2 of an H100/H200) is summed twice and the
second sum is timed; it runs from L2 unless the op's lines displace it.

    python benchmarks/l2_after_op.py [--dtypes ...] [--shapes ...] [--out FILE]

A shape is one of the suite's large or dims shapes, or sizes and the dims swapped,
e.g. 8x2048x32x68:1,2 (a float32 (B, S, H, D) tensor of 272-byte elements).

Prints one row per dtype x shape: median second-sum time after a copy and after
the transpose, and transpose / copy (about 1.0 where the op leaves L2 as a copy
does; lines left at evict_last read 1.10 or more). The two ops take turns in five
rounds. Inputs rotate over four tensors larger than L2 together, as in the suite.
"""

import argparse
import json
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_transpose as bench  # noqa: E402  (the suite's dtypes, shapes and inputs)

DEFAULT_DTYPES = ["uint8", "bfloat16", "float32", "float64", "complex128"]
DEFAULT_SHAPES = ["8192x8192", "8191x8193", "8192x8209[:,:-17]"]
LARGE_SHAPES = [name for name, entry in bench.SHAPES.items() if entry[2] in ("large", "dims")]


def case_of(shape_name):
    """(allocated shape, view, dims swapped) of a suite shape or of 'AxBx...[:d0,d1]'."""
    if shape_name in bench.SHAPES:
        return (*bench.SHAPES[shape_name][:2], bench.dims_of(shape_name))
    sizes, _, dims = shape_name.partition(":")
    try:
        shape = tuple(int(n) for n in sizes.split("x"))
        dims = tuple(int(d) for d in dims.split(",")) if dims else (-2, -1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a suite shape nor AxBx...[:d0,d1]: {shape_name}")
    if len(dims) != 2:
        raise argparse.ArgumentTypeError(f"two dims to swap: {shape_name}")
    return shape, None, dims


def shape_arg(name):
    case_of(name)  # rejects what it cannot read
    return name


def inputs_of(dtype_name, shape_name, count):
    shape, view, _ = case_of(shape_name)
    return [bench.random_input(shape, bench.DTYPES[dtype_name], view) for _ in range(count)]


def second_sum_times_us(before, inputs, buffer, reps):
    times = []
    for i in range(reps):
        before(inputs[i % len(inputs)])
        buffer.sum()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        buffer.sum()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    return times


def second_sum_us(ops, inputs, buffer, reps, rounds=5):
    """Median second-sum time after each op, the ops taking turns in `rounds` rounds
    (whatever disturbs the GPU for a while then falls on all of them alike)."""
    times = {label: [] for label in ops}
    for _ in range(rounds):
        for label, op in ops.items():
            times[label] += second_sum_times_us(op, inputs, buffer, max(2, reps // rounds))[1:]
    return {label: statistics.median(t) for label, t in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dtypes", nargs="+", choices=list(bench.DTYPES), default=DEFAULT_DTYPES)
    parser.add_argument("--shapes", nargs="+", type=shape_arg, default=DEFAULT_SHAPES,
                        help=f"suite shapes ({', '.join(LARGE_SHAPES)}) or AxBx...[:d0,d1]")
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--out", help="JSON file for the rows")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("No CUDA GPU found: this benchmark times CUDA kernels and needs one.", file=sys.stderr)
        return 2
    import torch_transpose  # noqa: F401  (registers torch.ops.gputranspose)

    torch.manual_seed(0)
    buffer = torch.randn(6 * 1024 * 1024, device="cuda")  # 24 MB
    def ops_of(shape_name):
        dims = case_of(shape_name)[2]
        return {
            "copy": lambda x: torch.empty_like(x, memory_format=torch.contiguous_format).copy_(x),
            "transpose": lambda x: torch.ops.gputranspose.transpose(x, *dims),
        }

    # Warm up (clocks, caches, the ops' first calls), so that the first row is timed as
    # the rest are.
    warm = inputs_of(args.dtypes[0], args.shapes[0], 1)
    second_sum_us(ops_of(args.shapes[0]), warm, buffer, 50)
    del warm
    rows = []
    print(f"{'dtype':11s} {'shape':18s} {'copy':>8s} {'transpose':>9s}  transpose/copy")
    for dname in args.dtypes:
        for sname in args.shapes:
            inputs = inputs_of(dname, sname, 4)
            t = second_sum_us(ops_of(sname), inputs, buffer, args.reps)
            rows.append({"dtype": dname, "shape": sname, **{f"{k}_us": v for k, v in t.items()}})
            print(f"{dname:11s} {sname:18s} {t['copy']:8.1f} {t['transpose']:9.1f}"
                  f"  {t['transpose'] / t['copy']:.3f}", flush=True)
            del inputs
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"environment": bench.environment(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
