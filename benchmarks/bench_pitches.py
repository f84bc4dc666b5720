"""Pitch sweeps and shapes beyond the suite: gputranspose against a same-shape copy.

By default, inputs of P x N elements (the output's rows are P elements long), P around
a power of two: how fast a transpose writes depends on where its output rows start, on
a 32-byte sector, 16 bytes into one, or anywhere (docs/PERFORMANCE.md, v27). With
--cases, the given R x C inputs, contiguous or the first C columns of R x P matrices
(input rows P elements apart): odd column counts cut each tile-row's last micro-block
(v33). Each case is checked byte for byte against ATen, then timed as
bench_transpose.py times (CUDA events, rotated inputs, median of reps taken in rounds
with the copy of a contiguous R x C tensor).

    python3 benchmarks/bench_pitches.py --dtypes uint8 bfloat16 --pitches 8191 8208 8224 \
        --out results.json
    python3 benchmarks/bench_pitches.py --cases uint8:8192x8193 uint8:8192x8193:8208
"""

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_transpose as bench  # noqa: E402  (the suite's timing and checks)

DEFAULT_PITCHES = [8191, 8193, 8199, 8200, 8208, 8224, 8240, 8256, 8320]


def parse_case(text):
    """'dtype:RxC' or 'dtype:RxC:P' -> (dtype name, R, C, input pitch P)."""
    parts = text.split(":")
    rows, cols = (int(n) for n in parts[1].split("x"))
    pitch = int(parts[2]) if len(parts) > 2 else cols
    if parts[0] not in bench.DTYPES or pitch < cols:
        raise argparse.ArgumentTypeError(f"bad case {text!r}: dtype:RxC[:P], P >= C")
    return parts[0], rows, cols, pitch


def time_case(dtype_name, rows, cols, pitch, reps, rounds):
    dtype = bench.DTYPES[dtype_name]
    view = (lambda x: x[:, :cols]) if pitch != cols else None
    name = f"{rows}x{cols}" + (f" of {rows}x{pitch}" if view else "")
    inputs = bench.rotated_inputs((rows, pitch), dtype, view)
    bench.check_against_aten({"gputranspose": torch.ops.gputranspose.transpose}, inputs[0],
                             f"{dtype_name} {name}")
    contiguous = [x.contiguous() for x in inputs]
    cases = {"gputranspose": (torch.ops.gputranspose.transpose, inputs),
             "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ms = bench.time_interleaved_ms(cases, reps, 5, rounds, head_start=True)
    return {"dtype": dtype_name, "shape": name, "input_pitch": pitch,
            "output_row_bytes": rows * inputs[0].element_size(),
            "gputranspose_us": ms["gputranspose"] * 1e3, "copy_us": ms["copy"] * 1e3,
            "ours_over_copy": ms["gputranspose"] / ms["copy"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dtypes", nargs="+", default=["uint8", "bfloat16", "float32", "float64"],
                        choices=list(bench.DTYPES))
    parser.add_argument("--pitches", nargs="+", type=int, default=DEFAULT_PITCHES,
                        help="input rows P (the output rows' length in elements)")
    parser.add_argument("--cols", type=int, default=8192, help="input columns N")
    parser.add_argument("--cases", nargs="+", type=parse_case, metavar="DTYPE:RxC[:P]",
                        help="time these inputs instead of the sweep (P: input pitch, "
                             "default C, contiguous)")
    parser.add_argument("--tag", default="", help="a label stored with each row (A/B runs)")
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--out", help="JSON file for the rows and the environment")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("No CUDA GPU found: this benchmark times CUDA kernels and needs one.", file=sys.stderr)
        return 2
    env = bench.environment()
    print(f"{env['device']}, driver {env['driver']}, torch {env['torch']} (CUDA {env['cuda']})")
    print(f"{'dtype':10s} {'shape':>20s} {'row bytes':>9s} {'us':>7s} {'copy us':>7s} {'x copy':>6s}")
    cases = args.cases or [(dtype_name, pitch, args.cols, args.cols)
                           for dtype_name in args.dtypes for pitch in args.pitches]
    rows = []
    for dtype_name, n_rows, cols, pitch in cases:
        row = time_case(dtype_name, n_rows, cols, pitch, args.reps, args.rounds)
        row["tag"] = args.tag
        rows.append(row)
        print(f"{dtype_name:10s} {row['shape']:>20s} {row['output_row_bytes']:9d} "
              f"{row['gputranspose_us']:7.1f} {row['copy_us']:7.1f} {row['ours_over_copy']:6.3f}",
              flush=True)
        torch.cuda.empty_cache()
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"environment": env, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
