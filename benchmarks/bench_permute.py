"""Permute sweep: gputranspose's permute (and its contiguous(x, memory_format)) against its
peers and a same-size copy, on fixed cases and on random permutations.

    python benchmarks/bench_permute.py [--cases 200] [--seed 0] [--only-fixed] [--quick]
    ./scripts/bench --permute [same options]

The fixed cases (FIXED, each with a short name; 64-256 MiB, the targets' sizes, but for
the all-2 reversal of 1-byte elements, 16 MiB) in bfloat16, float16, float32, uint8,
float64 and int64:
  * NCHW -> NHWC and NHWC -> NCHW, C in {3, 4, 64, 256};
  * attention heads (B, S, H, D) -> (B, H, S, D) and (B, H, D, S), D in {64, 128}, H 16
    or 32 (one with S = 4095);
  * 3-D: the reversal (2, 1, 0) and both rotations (1, 2, 0) and (2, 0, 1), round and
    odd sizes;
  * 4-D moves (3, 1, 0, 2), (2, 3, 0, 1), (1, 0, 3, 2), (0, 3, 2, 1) and 5-D ones
    (0, 2, 3, 4, 1), (0, 4, 1, 2, 3), (4, 0, 3, 1, 2), (3, 1, 4, 2, 0);
  * the reversal of all dims, rank 24 with every dim 2, rank 16 and 17 with every dim 3;
  * channels_last and channels_last_3d conversions, and back to contiguous_format, through
    contiguous(x, memory_format);
  * strided inputs: a sliced last dim (q of a packed qkv, RGB of RGBA), a storage offset,
    a permuted view (a (B, H, S, D) view of (B, S, H, D); a channels_last tensor, whose
    permute to NHWC is a copy), an expanded dim (stride 0);
  * the identity of a contiguous tensor (a copy; ATen returns its input as is).

The distribution of the random cases (sample_random_cases(n, seed); the same n and seed
give the same cases):
  * dtype: bench_sweep's 14 DTYPE_NAMES in equal shares (elements of 1, 2, 4, 8 and 16
    bytes).
  * rank: 2, 3, 4, 5 or 6 in equal shares; the permutation uniform over all but the
    identity.
  * size: x's bytes log-uniform in [1 MiB, 512 MiB]; each dim tiny (1-4) with
    probability 0.3, the others a random log split of the rest (an even one made odd
    half the time), the largest dim then fitted to the draw.
  * view: 40% contiguous, 20% row-sliced (the last dim cut from one 1-100 elements
    wider, at most 4 times as wide), 20% at a storage offset of 1-15 elements, 20% a
    permuted view of a contiguous tensor (any order but the identity).

Each case times, as bench_sweep does (CUDA events behind a sleep kernel, warm-up, median
of --reps taken in rounds that visit every implementation in turn, inputs rotated over
copies that hold more than twice the L2):
  gputranspose  torch.ops.gputranspose.permute(x, dims), or on a conversion
                torch.ops.gputranspose.contiguous(x, memory_format)
  aten          x.permute(dims).contiguous(), or x.contiguous(memory_format=...)
  compile       torch.compile of the aten expression (dynamic=True, one per rank, dtype
                and permutation or memory format; recompiles fall outside the timed calls)
  copy          out.copy_(src), src a contiguous tensor of x's dtype and size
Each output is first checked against ATen's as raw bytes, and as a contiguous tensor of
the permuted shape (on conversions: with ATen's strides): a wrong one (or an error) counts
as wrong and is not timed. A peer that returns x as is (the result's layout is x's) is not
timed there (listed under "aliases"). A case that does not fit the free GPU memory is
skipped.

Each case has a class (permute_class), the planner's view of it: the result's dims in
result order with x's strides, size-1 dims dropped and neighbours that lie back to back in
x fused; "A" where the last fused dim has stride 1 (the output's rows are x's) of 16 bytes
or more; else "B" where x's innermost run (the fused dim of stride 1) and the output's
(the last fused dim) both have 64 bytes or more; else "C"; "copy" where the fused form is
one dim of stride 1 or has no dim of stride 1. A conversion's result order is its memory
format's (channels_last: 0, 2, 3, 1); explain_permute reports its path for that order.

Writes benchmarks/results/permute-<gpu>.json (environment, every case, summary, by_class)
and permute-<gpu>.png (time / copy against bytes, by class). Summary ratios are
gputranspose's time over the copy's, with bench_sweep's keys, but large cases are those
of 64 MiB or more here; by_class gives, per class, among the large cases: how many, the
geomean and worst of that ratio, the worst case and how many a peer beat by more than 3%.
"""

import json
import math
import random
import sys
import time

from bench_sweep import (DTYPE_NAMES, ITEMSIZE, MIB, MIN_BYTES, Sweep, _geomean, _log_uniform,
                         _spread, _stratified, _view, case_bytes, distribution_text, git_commit,
                         gpu_ready, gpu_short_name, keyed_function, lift_compile_limits,
                         peer_lines, run_arguments, run_cases, run_totals_line, size_lines,
                         slower_than_a_peer, summarize, sweep_figure, worst_lines, write_results)

MAX_BYTES = 512 * MIB
LARGE_BYTES = 64 * MIB
RANKS = (2, 3, 4, 5, 6)
TINY_SHARE = 0.3  # a random case's dims of 1-4
VIEWS = {"contiguous": 0.4, "row_sliced": 0.2, "storage_offset": 0.2, "permuted_view": 0.2}
CLASSES = ["A", "B", "C", "copy"]
CLASS_COLORS = {"A": "tab:green", "B": "tab:blue", "C": "tab:red", "copy": "tab:gray"}
# Where each memory format puts the dims, outermost first (contiguous_format: in order).
FORMAT_ORDER = {"channels_last": (0, 2, 3, 1), "channels_last_3d": (0, 2, 3, 4, 1)}

NCHW_NHWC, NHWC_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)
BHSD, BHDS = (0, 2, 1, 3), (0, 2, 3, 1)
# name, dtype, shape, the permutation or the memory format, and the view (default
# contiguous) with its arguments.
FIXED = [
    ("nchw-nhwc-c3-f32", "float32", (128, 3, 224, 224), NCHW_NHWC),
    ("nchw-nhwc-c3-u8", "uint8", (512, 3, 224, 224), NCHW_NHWC),
    ("nchw-nhwc-c4-bf16", "bfloat16", (256, 4, 224, 224), NCHW_NHWC),
    ("nchw-nhwc-c64-f16", "float16", (64, 64, 112, 112), NCHW_NHWC),
    ("nchw-nhwc-c64-i64", "int64", (16, 64, 112, 112), NCHW_NHWC),
    ("nchw-nhwc-c256-bf16", "bfloat16", (64, 256, 56, 56), NCHW_NHWC),
    ("nhwc-nchw-c3-u8", "uint8", (512, 224, 224, 3), NHWC_NCHW),
    ("nhwc-nchw-c4-f32", "float32", (128, 224, 224, 4), NHWC_NCHW),
    ("nhwc-nchw-c64-bf16", "bfloat16", (64, 112, 112, 64), NHWC_NCHW),
    ("nhwc-nchw-c256-f16", "float16", (64, 56, 56, 256), NHWC_NCHW),
    ("nhwc-nchw-c256-f64", "float64", (16, 56, 56, 256), NHWC_NCHW),
    ("bshd-bhsd-d64-bf16", "bfloat16", (8, 4096, 32, 64), BHSD),
    ("bshd-bhsd-d64-s4095-f32", "float32", (8, 4095, 16, 64), BHSD),
    ("bshd-bhsd-d128-f16", "float16", (8, 4096, 16, 128), BHSD),
    ("bshd-bhsd-d128-f32", "float32", (2, 4096, 32, 128), BHSD),
    ("bshd-bhds-d64-bf16", "bfloat16", (16, 4096, 16, 64), BHDS),
    ("bshd-bhds-d128-bf16", "bfloat16", (4, 4096, 32, 128), BHDS),
    ("bshd-bhds-d128-f32", "float32", (2, 4096, 16, 128), BHDS),
    ("rev3d-f32", "float32", (512, 256, 256), (2, 1, 0)),
    ("rev3d-f64", "float64", (256, 256, 256), (2, 1, 0)),
    ("rev3d-odd-u8", "uint8", (1000, 999, 97), (2, 1, 0)),
    ("rot120-bf16", "bfloat16", (4096, 64, 256), (1, 2, 0)),
    ("rot120-i64", "int64", (2048, 1024, 8), (1, 2, 0)),
    ("rot201-bf16", "bfloat16", (256, 4096, 64), (2, 0, 1)),
    ("rot201-odd-f32", "float32", (33, 1001, 999), (2, 0, 1)),
    ("p3102-f32", "float32", (64, 128, 64, 64), (3, 1, 0, 2)),
    ("p2301-bf16", "bfloat16", (64, 64, 128, 128), (2, 3, 0, 1)),
    ("p1032-u8", "uint8", (128, 128, 96, 96), (1, 0, 3, 2)),
    ("p0321-f16", "float16", (32, 64, 96, 512), (0, 3, 2, 1)),
    ("ncdhw-ndhwc-bf16", "bfloat16", (16, 64, 16, 56, 56), (0, 2, 3, 4, 1)),
    ("ndhwc-ncdhw-u8", "uint8", (32, 16, 56, 56, 64), (0, 4, 1, 2, 3)),
    ("p40312-f32", "float32", (32, 16, 64, 16, 48), (4, 0, 3, 1, 2)),
    ("p31420-f64", "float64", (16, 32, 64, 8, 48), (3, 1, 4, 2, 0)),
    ("rev-all2-r24-u8", "uint8", (2,) * 24, tuple(range(23, -1, -1))),
    ("rev-all2-r24-f32", "float32", (2,) * 24, tuple(range(23, -1, -1))),
    ("rev-all2-r24-i64", "int64", (2,) * 24, tuple(range(23, -1, -1))),
    ("rev-all3-r16-f32", "float32", (3,) * 16, tuple(range(15, -1, -1))),
    ("rev-all3-r16-bf16", "bfloat16", (3,) * 16, tuple(range(15, -1, -1))),
    ("rev-all3-r17-u8", "uint8", (3,) * 17, tuple(range(16, -1, -1))),
    ("to-cl-c3-f32", "float32", (128, 3, 224, 224), "channels_last"),
    ("to-cl-c64-bf16", "bfloat16", (64, 64, 112, 112), "channels_last"),
    ("to-cl-c256-u8", "uint8", (128, 256, 56, 56), "channels_last"),
    ("cl-to-nchw-c64-f16", "float16", (64, 64, 112, 112), "contiguous_format",
     "permuted_view", {"order": [0, 3, 1, 2]}),
    ("to-cl3d-c3-f32", "float32", (16, 3, 32, 112, 112), "channels_last_3d"),
    ("to-cl3d-c64-bf16", "bfloat16", (16, 64, 16, 56, 56), "channels_last_3d"),
    ("cl3d-to-ncdhw-c32-f32", "float32", (16, 32, 16, 56, 56), "contiguous_format",
     "permuted_view", {"order": [0, 4, 1, 2, 3]}),
    ("sliced-qkv-bhsd-bf16", "bfloat16", (8, 4096, 16, 64), BHSD, "row_sliced", {"pad": 128}),
    ("sliced-rgba-nchw-u8", "uint8", (512, 224, 224, 3), NHWC_NCHW, "row_sliced", {"pad": 1}),
    ("offset-bhsd-f32", "float32", (2, 4096, 32, 128), BHSD, "storage_offset", {"offset": 3}),
    ("offset-rev3d-u8", "uint8", (1024, 1024, 128), (2, 1, 0), "storage_offset", {"offset": 5}),
    ("view-bhsd-bhds-bf16", "bfloat16", (8, 16, 4096, 64), (0, 1, 3, 2), "permuted_view",
     {"order": [0, 2, 1, 3]}),
    ("view-cl-nhwc-bf16", "bfloat16", (64, 64, 112, 112), NCHW_NHWC, "permuted_view",
     {"order": [0, 3, 1, 2]}),
    ("expand-nchw-nhwc-f32", "float32", (32, 64, 112, 112), NCHW_NHWC, "expanded", {"dim": 1}),
    ("expand-kv-bhsd-bf16", "bfloat16", (8, 4096, 16, 64), BHSD, "expanded", {"dim": 2}),
    ("identity-bf16", "bfloat16", (64, 1024, 1024), (0, 1, 2)),
]


# ----------------------------------------------------------------------------------
# Cases and their classes (pure: no GPU, no torch)


def contiguous_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return strides[::-1]


def input_strides(case):
    """x's strides, as build_input makes it, in elements."""
    shape, args, view = list(case["shape"]), case["view_args"], case["view"]
    if view == "row_sliced":
        return contiguous_strides(shape[:-1] + [shape[-1] + args["pad"]])
    if view == "permuted_view":
        base = [0] * len(shape)
        for i, o in enumerate(args["order"]):
            base[o] = shape[i]
        strides = contiguous_strides(base)
        return [strides[o] for o in args["order"]]
    if view == "expanded":
        strides = contiguous_strides(shape[:args["dim"]] + [1] + shape[args["dim"] + 1:])
        strides[args["dim"]] = 0
        return strides
    return contiguous_strides(shape)


def result_order(case):
    """The order of x's dims in the result's memory: the permutation, or the memory
    format's."""
    if "perm" in case:
        return list(case["perm"])
    return list(FORMAT_ORDER.get(case["memory_format"], range(len(case["shape"]))))


def fused_dims(sizes, strides, perm):
    """The result's dims in result order as (size, x's stride): size-1 dims dropped, and
    neighbours that lie back to back in x (stride[i] == stride[i+1] * size[i+1]) fused."""
    fused = []
    for d in perm:
        size, stride = sizes[d], strides[d]
        if size == 1:
            continue
        if fused and fused[-1][1] == stride * size:
            fused[-1] = (fused[-1][0] * size, stride)
        else:
            fused.append((size, stride))
    return fused


def permute_class(sizes, strides, itemsize, perm):
    """"A", "B", "C" or "copy", as the module docstring says."""
    fused = fused_dims(sizes, strides, perm)
    runs = [size for size, stride in fused if stride == 1]
    if len(fused) < 2 or not runs:
        return "copy"
    last, last_stride = fused[-1]
    if last_stride == 1 and last * itemsize >= 16:
        return "A"
    if runs[0] * itemsize >= 64 and last * itemsize >= 64:
        return "B"
    return "C"


def case_class(case):
    return permute_class(case["shape"], input_strides(case), ITEMSIZE[case["dtype"]],
                         result_order(case))


def _finish(case):
    case["bytes"] = case_bytes(case)
    case["class"] = case_class(case)
    return case


def fixed_cases():
    """FIXED as case specs (dicts: id, name, kind, dtype, shape, perm or memory_format,
    view, view_args, bytes, class)."""
    cases = []
    for i, (name, dtype, shape, how, *view) in enumerate(FIXED):
        case = {"id": i, "name": name, "kind": "fixed", "dtype": dtype, "shape": list(shape)}
        case.update({"memory_format": how} if isinstance(how, str) else {"perm": list(how)})
        case["view"], case["view_args"] = view if view else ("contiguous", {})
        cases.append(_finish(case))
    return cases


def _moved(rng, rank):
    """A permutation of range(rank) other than the identity."""
    while True:
        perm = list(range(rank))
        rng.shuffle(perm)
        if perm != sorted(perm):
            return perm


def _random_shape(rng, rank, itemsize, target):
    """rank dims of about target bytes: tiny ones (1-4), the others a log split of the
    rest (an even one made odd half the time), the largest fitted to the target."""
    shape = [rng.randint(1, 4) if rng.random() < TINY_SHARE else 0 for _ in range(rank)]
    free = [i for i, n in enumerate(shape) if n == 0] or [rng.randrange(rank)]
    rest = target / itemsize / math.prod(n for i, n in enumerate(shape) if i not in free)
    for i, n in zip(free, _spread(rng, max(1, round(rest)), len(free))):
        shape[i] = n + 1 if n % 2 == 0 and rng.random() < 0.5 else n
    big = shape.index(max(shape))
    others = math.prod(shape) // shape[big]
    shape[big] = max(1, round(target / itemsize / others))
    return shape


def _input_view(rng, kind, shape):
    if kind == "permuted_view":
        return {"order": _moved(rng, len(shape))}
    args = _view(rng, kind, shape)
    if kind == "row_sliced":  # tiny last dims are common here: at most 4 times as wide
        args["pad"] = min(args["pad"], 3 * shape[-1])
    return args


def sample_random_cases(n, seed=0, first_id=0):
    """n random case specs (dicts: id, kind, dtype, shape, perm, view, view_args, bytes,
    class), drawn as the module docstring says."""
    rng = random.Random(seed)
    dtypes = _stratified(rng, n, {d: 1 for d in DTYPE_NAMES})
    ranks = _stratified(rng, n, {r: 1 for r in RANKS})
    views = _stratified(rng, n, VIEWS)
    cases = []
    for i in range(n):
        itemsize = ITEMSIZE[dtypes[i]]
        while True:
            shape = _random_shape(rng, ranks[i], itemsize, _log_uniform(rng, MIN_BYTES, MAX_BYTES))
            if MIN_BYTES <= math.prod(shape) * itemsize <= MAX_BYTES:
                break
        case = {"id": first_id + i, "kind": "random", "dtype": dtypes[i], "shape": shape,
                "perm": _moved(rng, ranks[i]), "view": views[i],
                "view_args": _input_view(rng, views[i], shape)}
        cases.append(_finish(case))
    return cases


def _listed(v):
    return ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)


def describe(case):
    what = (f"to {case['memory_format']}" if "memory_format" in case
            else "perm " + _listed(case["perm"]))
    args = case.get("view_args") or {}
    extra = "".join(f" {k}={_listed(v)}" for k, v in args.items())
    name = f"{case['name']}: " if "name" in case else ""
    return (f"{name}{case['dtype']} {'x'.join(map(str, case['shape']))} {what} "
            f"{case['view']}{extra}")


# ----------------------------------------------------------------------------------
# Summary (pure)


def by_class(results):
    """Per class, among the large (>= 64 MiB) cases that gputranspose ran right: how many,
    the geomean and worst of its time over the copy's, the worst case, and how many a
    peer beat by more than 3%."""
    classes = {}
    for cls in CLASSES:
        rs = [r for r in results if r.get("class") == cls and r["bytes"] >= LARGE_BYTES
              and not r.get("wrong") and (r.get("ratio_to_copy") or {}).get("gputranspose")]
        worst = max(rs, key=lambda r: r["ratio_to_copy"]["gputranspose"], default=None)
        classes[cls] = {
            "cases": len(rs),
            "geomean": _geomean([r["ratio_to_copy"]["gputranspose"] for r in rs]),
            "worst": worst["ratio_to_copy"]["gputranspose"] if worst else None,
            "worst_case": describe(worst) if worst else None,
            "slower_than_a_peer": sum(1 for r in rs if slower_than_a_peer(r)),
        }
    return classes


def summary_lines(summary, classes, results):
    lines = size_lines(summary, results, LARGE_BYTES)
    for cls, c in classes.items():
        if c["cases"]:
            lines.append(f"  {cls:4s} {c['cases']:3d} cases >= 64 MiB: geomean {c['geomean']:.3f}, "
                         f"worst {c['worst']:.3f} ({c['worst_case']}), "
                         f"{c['slower_than_a_peer']} slower than a peer")
        else:
            lines.append(f"  {cls:4s}   0 cases >= 64 MiB")
    return lines + peer_lines(results) + worst_lines(results, describe)


# ----------------------------------------------------------------------------------
# Running (GPU)


class PermuteSweep(Sweep):
    """bench_sweep's Sweep on permute cases. Tests stand in for the ops: op(x, dims) and
    to_format(x, memory_format) (defaults: torch.ops.gputranspose.permute and
    .contiguous)."""

    def __init__(self, args, device="cuda", op=None, to_format=None, **kwargs):
        import torch

        super().__init__(args, device,
                         op or (lambda t, dims: torch.ops.gputranspose.permute(t, dims)), **kwargs)
        self.to_format = to_format or (lambda t, f: torch.ops.gputranspose.contiguous(t, f))

    def compile_key(self, case):
        return (len(case["shape"]), case["dtype"],
                case.get("memory_format") or tuple(case["perm"]))

    def aten_function(self, case, key):
        if "memory_format" in case:
            memory_format = getattr(self.torch, case["memory_format"])

            def to_format(x):
                return x.contiguous(memory_format=memory_format)

            return keyed_function(to_format, key)
        perm = tuple(case["perm"])

        def permute(x):
            return x.permute(perm).contiguous()

        return keyed_function(permute, key)

    def functions(self, x, case):
        aten = self.aten_function(case, self.compile_key(case))
        if "memory_format" in case:
            memory_format = getattr(self.torch, case["memory_format"])
            return {"gputranspose": lambda t: self.to_format(t, memory_format), "aten": aten}
        return {"gputranspose": lambda t: self.op(t, case["perm"]), "aten": aten}

    def explain(self, x, case):
        import torch_transpose

        return torch_transpose.explain_permute(x, result_order(case))

    def same_layout(self, got, want, case):
        if tuple(got.shape) != tuple(want.shape):
            return False
        return got.stride() == want.stride() if "memory_format" in case else got.is_contiguous()


def main(argv=None):
    args = run_arguments(argv, __doc__, 200, 20, "random cases",
                         [("--only-fixed", "run the fixed cases only")])

    if not gpu_ready(["permute", "contiguous"]):
        return 2
    import torch
    from bench_transpose import environment

    sweep = PermuteSweep(args)
    if not args.no_compile:
        lift_compile_limits(torch)

    env = environment()
    env.update({"git_commit": git_commit(), "seed": args.seed, "args": vars(args)})
    cases = fixed_cases()
    randoms = [] if args.only_fixed else sample_random_cases(args.cases, args.seed, len(cases))
    print(f"{env['device']}, driver {env['driver']}, torch {env['torch']} (CUDA {env['cuda']}); "
          f"{len(cases)} fixed and {len(randoms)} random cases, seed {args.seed}", flush=True)
    cases += randoms
    start = time.time()
    results, aborted, stopped = run_cases(sweep, cases, args.time_limit, describe)

    summary = summarize(results, LARGE_BYTES)
    classes = by_class(results)
    print()
    print(run_totals_line(sweep, results, start))
    print("\n".join(summary_lines(summary, classes, results)))
    write_results(args.out_dir, f"permute-{gpu_short_name(env['device'])}",
                  {"environment": env, "distribution": distribution_text(__doc__),
                   "skipped": sum(1 for r in results if r.get("skipped")), "aborted": aborted,
                   "stopped": stopped,
                   "compile_failures": {" ".join(map(str, k)): v
                                        for k, v in sweep.compile_errors.items()},
                   "summary": summary, "by_class": classes, "cases": results},
                  sweep_figure(results, env["device"], CLASSES, CLASS_COLORS, LARGE_BYTES,
                               "Permute sweep"))
    print("summary: " + json.dumps(summary))
    return 1 if aborted else 0


if __name__ == "__main__":
    sys.exit(main())
