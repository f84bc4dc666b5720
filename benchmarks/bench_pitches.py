"""Pitch sweeps and shapes beyond the suite: gputranspose against a same-shape copy.

By default, inputs of P x N elements (the output's rows are P elements long), P around
a power of two: how fast a transpose writes depends on where its output rows start, on
a 32-byte sector, 16 bytes into one, or anywhere (docs/PERFORMANCE.md, v27). With
--cases, the given R x C inputs, contiguous or the first C columns of R x P matrices
(input rows P elements apart): odd column counts cut each tile-row's last micro-block
(v33); B x R x C is a batch of B contiguous R x C matrices. Each case is checked byte for
byte against ATen, then timed as bench_transpose.py times (CUDA events, rotated inputs,
median of reps taken in rounds with the copy of a contiguous tensor of the same shape).

    python3 benchmarks/bench_pitches.py --dtypes uint8 bfloat16 --pitches 8191 8208 8224 \
        --out results.json
    python3 benchmarks/bench_pitches.py --cases uint8:8192x8193 uint8:8192x8193:8208 \
        uint8:32x2048x2048

--untransposed also times, for each case, copies of the same input rows into a
contiguous tensor with no transpose: the CUDA runtime's cudaMemcpy2DAsync and, for
views, ATen's x.contiguous(). They read every row where the transpose reads it (v47:
on an H200 both run at 2.3-4.1x the contiguous copy, so they bound nothing).
"""

import argparse
import ctypes
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_transpose as bench  # noqa: E402  (the suite's timing and checks)

DEFAULT_PITCHES = [8191, 8193, 8199, 8200, 8208, 8224, 8240, 8256, 8320]


def parse_case(text):
    """'dtype:RxC', 'dtype:RxC:P' or 'dtype:BxRxC' -> (dtype name, R, C, input pitch P,
    batch B)."""
    parts = text.split(":")
    dims = [int(n) for n in parts[1].split("x")]
    batch, rows, cols = ([1] + dims)[-3:] if len(dims) in (2, 3) else (0, 0, 0)
    pitch = int(parts[2]) if len(parts) > 2 else cols
    if parts[0] not in bench.DTYPES or batch < 1 or pitch < cols or (batch > 1 and pitch != cols):
        raise argparse.ArgumentTypeError(f"bad case {text!r}: dtype:[Bx]RxC[:P], P >= C, "
                                         "a batch contiguous")
    return parts[0], rows, cols, pitch, batch


def cuda_runtime():
    """The CUDA runtime library that torch loaded (ctypes), for cudaMemcpy2DAsync."""
    torch.cuda.init()
    major = torch.version.cuda.split(".")[0]
    names = [f"libcudart.so.{major}", "libcudart.so"]
    roots = [os.path.dirname(os.path.dirname(torch.__file__)), os.path.dirname(torch.__file__)]
    names += [path for root in roots
              for path in glob.glob(os.path.join(root, "**", f"libcudart.so.{major}*"), recursive=True)]
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise SystemExit("cannot load the CUDA runtime (libcudart) for cudaMemcpy2DAsync")


def memcpy_2d(runtime):
    """copy(x): x's rows (a 2-D view, unit column stride) into a new contiguous tensor by
    cudaMemcpy2DAsync on the current stream."""
    fn = runtime.cudaMemcpy2DAsync
    fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
                   ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
    fn.restype = ctypes.c_int
    device_to_device = 3

    def copy(x):
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        width = x.shape[1] * x.element_size()
        status = fn(out.data_ptr(), width, x.data_ptr(), x.stride(0) * x.element_size(), width,
                    x.shape[0], device_to_device, torch.cuda.current_stream().cuda_stream)
        if status != 0:
            raise RuntimeError(f"cudaMemcpy2DAsync failed: error {status}")
        return out

    return copy


def time_case(dtype_name, rows, cols, pitch, reps, rounds, untransposed=None, batch=1):
    dtype = bench.DTYPES[dtype_name]
    view = (lambda x: x[:, :cols]) if pitch != cols else None
    batch_dims = (batch,) if batch > 1 else ()
    name = "x".join(map(str, batch_dims + (rows, cols))) + (f" of {rows}x{pitch}" if view else "")
    inputs = bench.rotated_inputs(batch_dims + (rows, pitch), dtype, view)
    bench.check_against_aten({"gputranspose": torch.ops.gputranspose.transpose}, inputs[0],
                             f"{dtype_name} {name}")
    contiguous = [x.contiguous() for x in inputs]
    cases = {"gputranspose": (torch.ops.gputranspose.transpose, inputs),
             "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    if untransposed is not None:
        # x.contiguous() of a contiguous input returns it as it is: timed for views only.
        peers = {"memcpy2d": untransposed} if batch == 1 else {}
        if view:
            peers["contiguous"] = lambda x: x.contiguous()
        for label, fn in peers.items():
            if not torch.equal(fn(inputs[0]), contiguous[0]):
                raise SystemExit(f"WRONG RESULT: {label} on {dtype_name} {name}")
            cases[label] = (fn, inputs)
    ms = bench.time_interleaved_ms(cases, reps, 5, rounds, head_start=True)
    row = {"dtype": dtype_name, "shape": name, "input_pitch": pitch,
           "output_row_bytes": rows * inputs[0].element_size(),
           "gputranspose_us": ms["gputranspose"] * 1e3, "copy_us": ms["copy"] * 1e3,
           "ours_over_copy": ms["gputranspose"] / ms["copy"]}
    for label in ("memcpy2d", "contiguous"):
        if label in ms:
            row[f"{label}_us"] = ms[label] * 1e3
            row[f"{label}_over_copy"] = ms[label] / ms["copy"]
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dtypes", nargs="+", default=["uint8", "bfloat16", "float32", "float64"],
                        choices=list(bench.DTYPES))
    parser.add_argument("--pitches", nargs="+", type=int, default=DEFAULT_PITCHES,
                        help="input rows P (the output rows' length in elements)")
    parser.add_argument("--cols", type=int, default=8192, help="input columns N")
    parser.add_argument("--cases", nargs="+", type=parse_case, metavar="DTYPE:[Bx]RxC[:P]",
                        help="time these inputs instead of the sweep (P: input pitch, "
                             "default C, contiguous; B: a batch of B matrices)")
    parser.add_argument("--untransposed", action="store_true",
                        help="also time cudaMemcpy2DAsync and x.contiguous() of each input")
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
    untransposed = memcpy_2d(cuda_runtime()) if args.untransposed else None
    print(f"{'dtype':10s} {'shape':>20s} {'row bytes':>9s} {'us':>7s} {'copy us':>7s} {'x copy':>6s}"
          + ("  memcpy2d x copy  contiguous x copy" if untransposed else ""))
    cases = args.cases or [(dtype_name, pitch, args.cols, args.cols, 1)
                           for dtype_name in args.dtypes for pitch in args.pitches]
    rows = []
    for dtype_name, n_rows, cols, pitch, batch in cases:
        row = time_case(dtype_name, n_rows, cols, pitch, args.reps, args.rounds, untransposed, batch)
        row["tag"] = args.tag
        rows.append(row)
        print(f"{dtype_name:10s} {row['shape']:>20s} {row['output_row_bytes']:9d} "
              f"{row['gputranspose_us']:7.1f} {row['copy_us']:7.1f} {row['ours_over_copy']:6.3f}"
              + (f"  {row['memcpy2d_over_copy']:15.3f}  {row.get('contiguous_over_copy', float('nan')):17.3f}"
                 if untransposed else ""), flush=True)
        torch.cuda.empty_cache()
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"environment": env, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
