"""Benchmark: gputranspose against its peers, in one process, on the same tensors.

For each dtype x shape it times, with CUDA events (warm-up, median of many reps
taken in rounds that interleave the implementations, inputs rotated so that
consecutive reps miss L2):
  gputranspose   torch.ops.gputranspose.transpose(x)
  aten           x.t().contiguous()  (x.mT.contiguous() for batches)
  cublas         cuBLAS geam, where it applies (2-D float32/float64/complex64/complex128;
                 benchmarks/peers, built on first use)
  compile        torch.compile of the aten expression
  copy           torch.empty_like(c).copy_(c) on a contiguous tensor of x's shape:
                 the same bytes moved with no transpose, the limit
Every output is checked byte for byte against ATen before it is timed.

Writes a table to stdout, and JSON + PNG to --out-dir.
"""

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

import torch

from peers import geam_applies, load_cublas_peer
from source_digest import source_digest
from summarize import plot

IMPLEMENTATIONS = ["gputranspose", "aten", "cublas", "compile", "copy"]
PEERS = ["aten", "cublas", "compile"]

DTYPES = {
    "uint8": torch.uint8, "bool": torch.bool, "float8_e4m3fn": torch.float8_e4m3fn,
    "bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32,
    "float64": torch.float64, "complex64": torch.complex64, "complex128": torch.complex128,
}

# name -> (allocated shape, view applied to it, size class[, dims swapped: -2, -1 if not given])
# Size classes: "large" and "small" are the targets; "dims" swaps adjacent dims
# other than the last two, whose trailing dims make the element (not in the targets).
SHAPES = {
    "8192x8192": ((8192, 8192), None, "large"),
    "16384x16384": ((16384, 16384), None, "large"),
    "4096x32768": ((4096, 32768), None, "large"),
    "32768x4096": ((32768, 4096), None, "large"),
    "8191x8193": ((8191, 8193), None, "large"),
    # Rows 16-byte aligned on input but not on output: the fourth alignment case.
    "8191x8192": ((8191, 8192), None, "large"),
    "32x2048x2048": ((32, 2048, 2048), None, "large"),
    "8192x8209[:,:-17]": ((8192, 8209), lambda x: x[:, :-17], "large"),
    "1024x1024": ((1024, 1024), None, "small"),
    "65536x64": ((65536, 64), None, "small"),
    "64x65536": ((64, 65536), None, "small"),
    "4096x64x64": ((4096, 64, 64), None, "small"),
    # (B, S, H, D) -> (B, H, S, D): attention heads, elements of D values.
    "8x2048x32x128:1,2": ((8, 2048, 32, 128), None, "dims", (1, 2)),
    # (H, W, C) -> (W, H, C): RGBA images, elements of 4 values.
    "4096x4096x4:0,1": ((4096, 4096, 4), None, "dims", (0, 1)),
}
QUICK_SHAPES = ["8192x8192", "8191x8193", "32x2048x2048", "8192x8209[:,:-17]", "1024x1024",
                "65536x64", "4096x64x64"]
QUICK_DTYPES = ["uint8", "bfloat16", "float32", "float64", "complex128"]


def aten_transpose(x):
    return x.mT.contiguous()


def dims_of(shape_name):
    entry = SHAPES[shape_name]
    return entry[3] if len(entry) > 3 else (-2, -1)


def aten_transpose_of(dims):
    """The ATen expression for a dim pair (the compiled peer compiles the same)."""
    if dims == (-2, -1):
        return aten_transpose
    return lambda x: x.transpose(*dims).contiguous()


def timed_functions(probe, dims=(-2, -1), cublas=None):
    """gputranspose, the peers that apply to `probe` but torch.compile, and the copy.
    cublas: the cuBLAS geam op (peers.load_cublas_peer()), or None to leave it out."""
    fns = {
        "gputranspose": (torch.ops.gputranspose.transpose if dims == (-2, -1)
                         else lambda x: torch.ops.gputranspose.transpose(x, *dims)),
        "aten": aten_transpose_of(dims),
        "copy": lambda c: torch.empty_like(c).copy_(c),
    }
    if cublas is not None and geam_applies(probe, dims):
        fns["cublas"] = cublas
    return fns


def check_against_aten(fns, probe, label, dims=(-2, -1)):
    """Every transpose of `fns` (not the copy) equal to ATen's on `probe`, byte for byte."""
    expected = bytes_of(aten_transpose_of(dims)(probe))
    for name, fn in fns.items():
        if name != "copy" and not torch.equal(bytes_of(fn(probe)), expected):
            raise SystemExit(f"WRONG RESULT: {name} on {label}")


def random_input(shape, dtype, view):
    if dtype.is_floating_point or dtype.is_complex:
        # Finite values: cuBLAS geam is arithmetic (1 * A), which would quiet signalling NaNs.
        x = (torch.randn(shape, dtype=dtype, device="cuda") if dtype.is_complex
             else torch.randn(shape, device="cuda").to(dtype))
        return view(x) if view else x
    itemsize = torch.empty((), dtype=dtype).element_size()
    data = torch.randint(0, 256, (math.prod(shape) * itemsize,), dtype=torch.uint8, device="cuda")
    if dtype == torch.bool:
        data %= 2
    x = data.view(dtype).view(shape)
    return view(x) if view else x


def rotated_inputs(shape, dtype, view):
    """Fresh random inputs (the first one the probe that is checked), enough that
    cycling through them misses L2: 4x its size, at least 2."""
    probe = random_input(shape, dtype, view)
    nbytes = probe.numel() * probe.element_size()
    copies = max(2, math.ceil(4 * torch.cuda.get_device_properties(0).L2_cache_size / max(nbytes, 1)))
    return [probe] + [random_input(shape, dtype, view) for _ in range(copies - 1)]


def bytes_of(t):
    return t.contiguous().view(-1).view(torch.uint8)


# GPU cycles of head start per rep (about 100 us on an H100 or H200).
HEAD_START_CYCLES_PER_REP = 200_000


def event_times_ms(fn, inputs, reps, first=0, head_start=False,
                   head_start_cycles=HEAD_START_CYCLES_PER_REP):
    """Event-timed calls fn(inputs[first]), fn(inputs[first + 1]), ... (cycling).

    head_start: a sleep kernel queued first keeps the GPU busy while the host
    queues the reps, so that the events time the GPU's work alone. Without it
    a rep whose host work outlasts the GPU's (a slow spell of the host; the
    copy's two calls) is timed with the GPU idle in it: a 35 us uint8 copy read
    40-46 us in a run where the transposes beside it did not move."""
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    if head_start:
        torch.cuda._sleep(head_start_cycles * reps)
    for i in range(reps):
        x = inputs[(first + i) % len(inputs)]
        starts[i].record()
        fn(x)
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def time_interleaved_ms(cases, reps, warmup, rounds, head_start,
                        head_start_cycles=HEAD_START_CYCLES_PER_REP, timer=None):
    """Median of `reps` event-timed calls of each fn in `cases` ({name: (fn,
    inputs)}, the input lists as long as each other), taken in `rounds` rounds that
    visit every fn in turn, so that a slow spell of the machine (launch-bound shapes
    move by tens of percent between seconds) falls on all of them rather than on one.
    One cursor walks the inputs for all of them: every call reads the input after the
    previous call's, whichever fn made it, so no fn reads an input that another has just
    left in L2 (with a cursor per fn, each fn read the inputs the fn before it had just
    read: of two identical kernels timed so, the second was more than 5% faster on 20
    of 29 inputs of 1-15 MiB, up to 1.44x, H100). head_start: as in event_times_ms (head_start_cycles: GPU
    cycles of it per rep); timer: event_times_ms, or a stand-in for tests."""
    timer = timer or event_times_ms
    for fn, inputs in cases.values():
        for i in range(warmup):
            fn(inputs[i % len(inputs)])
    samples = {name: [] for name in cases}
    cursor = warmup  # the warm-ups read the first inputs
    for r in range(rounds):
        for name, (fn, inputs) in cases.items():
            n = reps // rounds + (1 if r < reps % rounds else 0)
            samples[name] += timer(fn, inputs, n, first=cursor, head_start=head_start,
                                   head_start_cycles=head_start_cycles)
            cursor += n
    return {name: statistics.median(times) for name, times in samples.items()}


def copy_roofline_gbps(reps):
    """GB/s (read + written) of a 1 GiB device-to-device copy."""
    n = 1 << 30
    src = [torch.randint(0, 256, (n,), dtype=torch.uint8, device="cuda") for _ in range(2)]
    dst = torch.empty(n, dtype=torch.uint8, device="cuda")
    ms = time_interleaved_ms({"copy": (lambda s: dst.copy_(s), src)}, reps, 3, rounds=1,
                             head_start=True)["copy"]
    del src, dst
    torch.cuda.empty_cache()
    return 2 * n / ms / 1e6


def extra_device_bytes(fn, x, out_bytes):
    """Device memory the call allocates beyond its output (target: none), from a
    freshly emptied cache: with cached blocks in play an earlier run read one
    element over on 8191x8193, where the op alone requests exactly its output."""
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    before = torch.cuda.memory_stats()["requested_bytes.all.current"]
    torch.cuda.reset_peak_memory_stats()
    y = fn(x)
    torch.cuda.synchronize()
    peak = torch.cuda.memory_stats()["requested_bytes.all.peak"] - before
    del y
    return peak - out_bytes


def bench_case(dtype_name, shape_name, args, compiled, cublas=None):
    """compiled: {dims: torch.compile of that dim pair's ATen expression}, or None;
    cublas: the cuBLAS geam op, or None."""
    import torch_transpose

    dtype = DTYPES[dtype_name]
    shape, view, size_class = SHAPES[shape_name][:3]
    dims = dims_of(shape_name)
    inputs = rotated_inputs(shape, dtype, view)
    probe = inputs[0]
    nbytes = probe.numel() * probe.element_size()
    contiguous = [x.contiguous() for x in inputs]

    fns = timed_functions(probe, dims, cublas)
    if compiled is not None:
        if dims not in compiled:
            compiled[dims] = torch.compile(aten_transpose_of(dims), dynamic=False)
        fns["compile"] = compiled[dims]
    check_against_aten(fns, probe, f"{dtype_name} {shape_name}", dims)

    row = {"dtype": dtype_name, "shape": shape_name, "size_class": size_class, "bytes": nbytes,
           "path": torch_transpose.explain(probe, *dims).get("path", "?")}
    cases = {name: (fn, contiguous if name == "copy" else inputs) for name, fn in fns.items()}
    # Large shapes: the GPU's time (a bandwidth measure). Small ones: the whole
    # call's, host included, as a launch-bound model sees it (the targets' "where
    # launch cost dominates").
    # Small ones take 10x the reps in 10x the rounds: a launch-bound call's time follows the
    # host, whose speed drifts within seconds, and 50 reps left peers 1-2% apart on either
    # side from run to run. A round there lasts milliseconds, not the large shapes'
    # hundreds.
    large = size_class != "small"
    timings = time_interleaved_ms(cases, args.reps if large else args.small_reps, args.warmup,
                                  args.rounds if large else args.small_rounds,
                                  head_start=large and not args.no_head_start)
    for name, ms in timings.items():
        row[f"{name}_ms"] = ms
        row[f"{name}_gbps"] = 2 * nbytes / ms / 1e6
    row["extra_bytes"] = extra_device_bytes(fns["gputranspose"], probe, nbytes)
    t_ours, t_copy = row["gputranspose_ms"], row["copy_ms"]
    row["ours_over_copy"] = t_ours / t_copy
    for name in fns:
        row[f"{name}_frac_of_copy"] = t_copy / row[f"{name}_ms"]
    for peer in PEERS:
        if f"{peer}_ms" in row:
            row[f"speedup_over_{peer}"] = row[f"{peer}_ms"] / t_ours
    del inputs, contiguous, probe
    torch.cuda.empty_cache()
    return row


def print_table(rows):
    head = (f"{'dtype':<14}{'shape':<19}{'path':<18}{'ours us':>9}{'GB/s':>7}{'/copy':>7}"
            f"{'x aten':>8}{'x geam':>8}{'x comp':>8}{'copy us':>9}")
    print(head)
    print("-" * len(head))
    for r in rows:
        def peer(p):
            v = r.get(f"speedup_over_{p}")
            return f"{v:8.2f}" if v is not None else f"{'-':>8}"
        print(f"{r['dtype']:<14}{r['shape']:<19}{r['path']:<18}{r['gputranspose_ms'] * 1e3:9.1f}"
              f"{r['gputranspose_gbps']:7.0f}{r['ours_over_copy']:7.3f}{peer('aten')}{peer('cublas')}"
              f"{peer('compile')}{r['copy_ms'] * 1e3:9.1f}")


def summarize_targets(rows):
    """The issue's targets: large <= 1.05 x copy; small <= 1.1 x copy; faster than every
    peer; no extra memory. Returns lines of text."""
    lines = []
    large = [r for r in rows if r["size_class"] == "large"]
    small = [r for r in rows if r["size_class"] == "small"]
    dims = [r for r in rows if r["size_class"] == "dims"]
    for label, group, limit in (("large (<= 1.05 x copy)", large, 1.05),
                                ("small (<= 1.10 x copy)", small, 1.10),
                                ("adjacent dims, not the last two (beyond the targets; 1.05)", dims, 1.05)):
        if group:
            worst = max(group, key=lambda r: r["ours_over_copy"])
            misses = [r for r in group if r["ours_over_copy"] > limit]
            lines.append(f"{label}: worst {worst['ours_over_copy']:.3f} ({worst['dtype']} {worst['shape']}), "
                         f"{len(misses)} of {len(group)} over")
    for peer in PEERS:
        key = f"speedup_over_{peer}"
        have = [r for r in rows if key in r]
        if have:
            worst = min(have, key=lambda r: r[key])
            slower = [r for r in have if r[key] < 1.0]
            lines.append(f"vs {peer}: worst speed-up {worst[key]:.2f} ({worst['dtype']} {worst['shape']}), "
                         f"{len(slower)} of {len(have)} slower")
    worst_mem = max(rows, key=lambda r: r["extra_bytes"])
    lines.append(f"extra device memory beyond the output: max {worst_mem['extra_bytes']} bytes")
    return lines


def environment():
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=20).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        driver = "unknown"
    props = torch.cuda.get_device_properties(0)
    return {
        "device": torch.cuda.get_device_name(0), "sm_count": props.multi_processor_count,
        "l2_bytes": props.L2_cache_size, "driver": driver, "torch": torch.__version__,
        "cuda": torch.version.cuda, "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "source_digest": source_digest(),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dtypes", nargs="+", choices=list(DTYPES), help="default: all")
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), help="default: all")
    parser.add_argument("--quick", action="store_true", help="fewer dtypes, shapes and reps, no compile")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--no-cublas", action="store_true", help="skip cuBLAS geam (no build)")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds that interleave the implementations (reps split among them)")
    parser.add_argument("--small-reps", type=int, default=500, help="--reps of the small shapes")
    parser.add_argument("--small-rounds", type=int, default=50, help="--rounds of the small shapes")
    parser.add_argument("--no-head-start", action="store_true",
                        help="time large shapes as small ones, host gaps included")
    parser.add_argument("--out-dir", default=os.path.join(os.path.dirname(__file__), "results"))
    parser.add_argument("--tag", default="", help="suffix of the result file names")
    args = parser.parse_args(argv)

    if not torch.cuda.is_available():
        print("No CUDA GPU found: this benchmark times CUDA kernels and needs one.", file=sys.stderr)
        return 2
    import torch_transpose

    if not torch_transpose.has_cuda_kernels():
        print("torch_transpose was built without its CUDA kernels (no nvcc at build time).", file=sys.stderr)
        return 2
    if args.quick:
        args.reps = min(args.reps, 20)
        args.small_reps = min(args.small_reps, 100)
        args.no_compile = True
    args.rounds = max(1, min(args.rounds, args.reps))
    args.small_rounds = max(1, min(args.small_rounds, args.small_reps))
    dtypes = args.dtypes or (QUICK_DTYPES if args.quick else list(DTYPES))
    shapes = args.shapes or (QUICK_SHAPES if args.quick else list(SHAPES))
    compiled = None
    if not args.no_compile:
        # One compiled graph per dtype x shape: lift the recompile limit so none falls back to eager.
        for knob in ("recompile_limit", "cache_size_limit"):
            if hasattr(torch._dynamo.config, knob):
                setattr(torch._dynamo.config, knob, 4096)
        compiled = {}

    cublas = None if args.no_cublas else load_cublas_peer()
    env = environment()
    env["copy_roofline_gbps"] = copy_roofline_gbps(args.reps)
    print(f"{env['device']}, driver {env['driver']}, torch {env['torch']} (CUDA {env['cuda']}); "
          f"1 GiB copy: {env['copy_roofline_gbps']:.0f} GB/s", flush=True)
    rows = []
    cases = [(d, s) for d in dtypes for s in shapes]
    start = time.time()
    for i, (dtype_name, shape_name) in enumerate(cases, 1):
        row = bench_case(dtype_name, shape_name, args, compiled, cublas)
        rows.append(row)
        print(f"[{i}/{len(cases)} {time.time() - start:5.0f}s] {dtype_name} {shape_name}: "
              f"{row['ours_over_copy']:.3f} x copy", flush=True)
    print()
    print_table(rows)
    summary = summarize_targets(rows)
    print()
    print("\n".join(summary))

    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, "bench" + (f"-{args.tag}" if args.tag else ""))
    with open(stem + ".json", "w") as f:
        json.dump({"environment": env, "reps": args.reps, "rounds": args.rounds,
                   "small_reps": args.small_reps, "small_rounds": args.small_rounds, "warmup": args.warmup,
                   "large_shapes_head_start": not args.no_head_start, "summary": summary,
                   "rows": rows}, f, indent=1)
    plot(rows, stem + ".png", env["device"])
    print(f"\nwrote {stem}.json and {stem}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
