"""Random-shape sweep: gputranspose against its peers and a same-size copy on hundreds of
cases drawn from a fixed distribution.

    python benchmarks/bench_sweep.py [--cases 500] [--seed 0] [--quick] [--out-dir DIR]
    ./scripts/bench --sweep [same options]

The distribution (sample_cases(n, seed); the same n and seed give the same cases):
  * dtype: the 14 of DTYPE_NAMES in equal shares (bool, uint8, int8, float8_e4m3fn,
    float8_e5m2, float16, bfloat16, int16, float32, int32, float64, int64, complex64,
    complex128: elements of 1, 2, 4, 8 and 16 bytes).
  * size: x's bytes log-uniform in [1 MiB, 1 GiB] (a free dim is fitted to the draw).
  * swapped dims: a third of the cases have a swapped dim of 1-16, a third one of
    17-128 (the other then 17 or more), a third both over 128.
  * kind: half the cases model-like, half random.
    - model-like: two large dims, round (powers of two, multiples of 64) or odd (one
      over a round size, vocabulary sizes, fitted sizes), from one of: a matrix (M, N),
      with a batch or not, swapping M and N; attention heads (B?, S, H, D) swapping S
      and H; channels (B?, C, HW) swapping C and HW; NCHW (B, C, H, W) swapping C and
      H; channels-last images (B?, H, W, C) swapping H and W; video (B, C, T, H, W)
      swapping C and T.
    - random: rank 2, 3, 4 or 5 in equal shares, any adjacent dim pair; where dims
      follow the pair, they make a trailing block that in 70% of the cases is a width
      in bytes that is no power of two (3, 5, 6, 10, 12, 24, 40, 7, 9, 14, ... 640: the
      least used one that the element size divides), else 1-256 elements, a power of
      two; the other dims random, sizes from 1 up.
  * view: 40% contiguous, 20% row-sliced (the last dim cut from one 1-100 elements
    wider), 20% at a storage offset of 1-15 elements, 20% a transposed view of a
    contiguous tensor (of its last two dims or of a random pair).
Each case falls in one class: "odd block" where the swapped pair is not the last one
and the trailing block's width in bytes is no power of two; otherwise by the smaller
swapped dim: "dim <= 16", "dim 17-128" or "dim > 128".

Each case times, with CUDA events (warm-up, median of --reps taken in rounds that
visit every implementation in turn, behind a sleep kernel so that the events time
the GPU's work, inputs rotated over copies that hold more than twice the L2):
  gputranspose  torch.ops.gputranspose.transpose(x, d0, d1)
  aten          x.transpose(d0, d1).contiguous()
  cublas        cuBLAS geam (benchmarks/peers), on 2-D float32/float64/complex64/
                complex128 inputs with unit-stride rows
  compile       torch.compile of the aten expression (dynamic=True, one per rank,
                dtype and dim pair; a layout or a size-1 dim that it has not seen
                recompiles it, outside the timed calls; one that fails to compile
                is recorded and left out for its key)
  copy          out.copy_(src), src a contiguous tensor of x's dtype and size
Each output is first checked against ATen's as raw bytes: a wrong one (or an error)
counts as wrong and is not timed (a wrong or failing peer is dropped for that case).
Where x.transpose(d0, d1) is contiguous already, ATen (and maybe torch.compile) returns
it as is: such a peer does no work and makes no new tensor, and is not timed there
(listed under "aliases"); the op always returns a new tensor.
A case whose buffers do not fit the free GPU memory takes 2 input copies, or is skipped.

Writes benchmarks/results/sweep-<gpu>.json (environment, every case, the summary) and
sweep-<gpu>.png (time / copy against bytes, by class). Summary ratios are
gputranspose's time over the copy's: large cases are those of 16 MiB or more;
slower_than_a_peer counts cases where a peer is more than 3% faster than gputranspose.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import sector_bound  # noqa: E402

MIB = 1 << 20
MIN_BYTES = 1 * MIB
MAX_BYTES = 1 << 30
LARGE_BYTES = 16 * MIB
PEER_MARGIN = 1.03  # a peer is "faster" when our time exceeds its time by more than 3%
# GPU cycles of sleep queued ahead of each timed call (about 0.5 ms): more than the host
# spends on any implementation's call (torch.compile's guards and wrapper included), so
# that the events time the GPU's work.
HEAD_START_CYCLES_PER_REP = 1_000_000

ITEMSIZE = {
    "bool": 1, "uint8": 1, "int8": 1, "float8_e4m3fn": 1, "float8_e5m2": 1,
    "float16": 2, "bfloat16": 2, "int16": 2,
    "float32": 4, "int32": 4,
    "float64": 8, "int64": 8, "complex64": 8,
    "complex128": 16,
}
DTYPE_NAMES = list(ITEMSIZE)
GEAM_DTYPES = ("float32", "float64", "complex64", "complex128")
PEERS = ["aten", "cublas", "compile"]

BANDS = ["le16", "mid", "large"]  # the smaller swapped dim: 1-16, 17-128, over 128
CLASSES = ["dim <= 16", "dim 17-128", "dim > 128", "odd block"]
CLASS_COLORS = {"dim <= 16": "tab:blue", "dim 17-128": "tab:green", "dim > 128": "tab:purple",
                "odd block": "tab:red"}
VIEWS = {"contiguous": 0.4, "row_sliced": 0.2, "storage_offset": 0.2, "transposed_view": 0.2}
MODEL_TEMPLATES = ["matrix", "heads", "channels", "nchw", "hwc", "video"]
# Trailing-block widths in bytes that are no power of two, the least used one that the
# element size divides taken first (in this order on ties), and element counts that are.
ODD_WIDTHS = [3, 5, 6, 10, 12, 24, 40, 7, 9, 14, 15, 20, 28, 36, 48, 56, 80, 96, 100, 120, 144,
              160, 196, 200, 384, 640]
TRAIL_POW2 = [1, 2, 4, 8, 16, 32, 64, 128, 256]
VOCAB = [1000, 30522, 32001, 50257, 128256, 151936]


# ----------------------------------------------------------------------------------
# Sampling (pure: no GPU, no torch)


def _stratified(rng, n, weights):
    """n labels, each label's count its weight's share of n (largest remainders
    first), in a shuffled order."""
    total = sum(weights.values())
    exact = {k: n * w / total for k, w in weights.items()}
    counts = {k: int(v) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: counts[k] - exact[k])[: n - sum(counts.values())]:
        counts[k] += 1
    labels = [k for k, c in counts.items() for _ in range(c)]
    rng.shuffle(labels)
    return labels


def _log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def _log_int(rng, lo, hi):
    """An integer in [lo, hi], log-uniform."""
    return max(lo, min(hi, int(round(_log_uniform(rng, lo, hi + 0.999)))))


def _band_dim(rng, band, choices=None):
    lo, hi = {"le16": (1, 16), "mid": (17, 128), "large": (129, 65536)}[band]
    if choices:
        choices = [c for c in choices if lo <= c <= hi]
        if choices:
            return rng.choice(choices)
    return rng.randint(lo, hi) if band != "large" else _log_int(rng, lo, hi)


def _split(rng, count, k):
    """count as a product of k factors (some of them 1), in random order."""
    dims = [1] * k
    if k == 0:
        return dims
    rest = count
    for p in range(2, int(math.isqrt(count)) + 2):
        while rest % p == 0 and rest > 1:
            dims[rng.randrange(k)] *= p
            rest //= p
    if rest > 1:
        dims[rng.randrange(k)] *= rest
    return dims


def _round_size(rng, n):
    """n rounded to a power of two or a multiple of 64 (at least 1)."""
    if n < 64 or rng.random() < 0.4:
        return max(1, 2 ** round(math.log2(max(n, 1))))
    return max(64, 64 * round(n / 64))


def _fit(free_lo, fixed_bytes, target):
    """The free dim's size (>= free_lo) that brings the bytes nearest the target within
    [MIN_BYTES, MAX_BYTES], or None."""
    lo = max(free_lo, -(-MIN_BYTES // fixed_bytes))
    hi = MAX_BYTES // fixed_bytes
    if lo > hi:
        return None
    return max(lo, min(hi, int(round(target / fixed_bytes))))


def _model_shape(rng, band, itemsize, target):
    """(shape, dims, template) of a model-like case, or None to draw again."""
    template = rng.choice([t for t in MODEL_TEMPLATES if band != "large" or t != "heads"])
    odd = rng.random() < 0.5
    batch = rng.random() < 0.5

    def big(choices):
        n = rng.choice(choices)
        return n + 1 if odd and rng.random() < 0.5 else n

    def fill(fixed, lo=1):
        n = _fit(lo, fixed * itemsize, target)
        if n is None:
            return None
        r = n if odd else _round_size(rng, n)
        r = r if lo <= r and MIN_BYTES <= r * fixed * itemsize <= MAX_BYTES else n
        return r

    if template == "matrix":
        # (B?, M, N): the smaller of M and N from the band, the other fills.
        small = _band_dim(rng, band, [4, 8, 16, 32, 64, 96, 128, 256, 512, 768, 1024, 4096,
                                      5120, 8192] + VOCAB)
        b = rng.choice([2, 4, 8, 16, 32]) if batch else 1
        other = fill(small * b, lo=max(small, 17) if band != "le16" else 1)
        if other is None:
            return None
        pair = [small, other] if rng.random() < 0.5 else [other, small]
        shape = ([b] if batch else []) + pair
        return shape, (len(shape) - 2, len(shape) - 1), template
    if template == "heads":
        h = _band_dim(rng, band, [1, 2, 4, 8, 12, 14, 16, 20, 24, 25, 28, 32, 40, 48, 56, 64,
                                  71, 96, 128])
        d = big([32, 64, 80, 96, 112, 128, 160, 256])
        b = rng.choice([1, 2, 4, 8]) if batch else 1
        s = fill(h * d * b, lo=17)
        if s is None:
            return None
        return ([b, s, h, d], (1, 2), template) if batch else ([s, h, d], (0, 1), template)
    if template == "channels":
        c = _band_dim(rng, band, [1, 3, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 320, 512,
                                  640, 768, 1024, 1280])
        b = rng.choice([1, 2, 8, 16, 32]) if batch else 1
        side = rng.choice([7, 14, 28, 32, 56, 64, 112, 224, 256, 512])
        hw = side * side if rng.random() < 0.7 else None
        if hw is None:
            hw = fill(c * b, lo=129)
            if hw is None:
                return None
        elif not MIN_BYTES <= b * c * hw * itemsize <= MAX_BYTES:
            b = fill(c * hw)
            if b is None:
                return None
            batch = True
        if rng.random() < 0.5:  # NCHW -> NHWC, or back
            pair = [c, hw]
        else:
            pair = [hw, c]
        shape = ([b] if batch else []) + pair
        return shape, (len(shape) - 2, len(shape) - 1), template
    if template == "hwc":
        # (B?, H, W, C) images, channels last, swapping H and W.
        h = _band_dim(rng, band, [8, 14, 16, 24, 32, 64, 96, 112, 128, 224, 256, 384, 512, 1024,
                                  2048, 4096])
        ch = rng.choice([1, 2, 3, 3, 4, 4])
        b = rng.choice([2, 4, 8, 16]) if batch else 1
        w = fill(h * ch * b, lo={"le16": 1, "mid": 17, "large": 129}[band])
        if w is None:
            return None
        pair = [h, w] if rng.random() < 0.5 else [w, h]
        shape = ([b] if batch else []) + pair + [ch]
        return shape, (len(shape) - 3, len(shape) - 2), template
    if template == "nchw":
        c = _band_dim(rng, band, [1, 3, 4, 8, 16, 32, 64, 96, 128, 256, 512, 1024])
        side = rng.choice([7, 14, 28, 56, 112, 224, 129, 255])
        hside = side if band != "large" or side > 128 else 224
        b = fill(c * hside * side)
        if b is None:
            return None
        return [b, c, hside, side], (1, 2), template
    # video (B, C, T, H, W), swapping C and T
    c = _band_dim(rng, band, [3, 4, 8, 16, 32, 64, 96, 128, 192, 256, 512])
    t = rng.choice([4, 8, 16, 32]) if band != "large" else rng.choice([130, 256, 300])
    side = rng.choice([7, 14, 28, 56, 112])
    b = fill(c * t * side * side)
    if b is None:
        return None
    pair = [c, t] if band != "large" or rng.random() < 0.5 else [t, c]
    return [b] + pair + [side, side], (1, 2), template


def _odd_width(widths_used, itemsize):
    """The least used odd width that elements of itemsize bytes make (first in
    ODD_WIDTHS on ties)."""
    return min((w for w in ODD_WIDTHS if w % itemsize == 0),
               key=lambda w: (widths_used.get(w, 0), ODD_WIDTHS.index(w)))


def _random_shape(rng, band, itemsize, target, rank, widths_used):
    """(shape, dims, "random") of a random case, or None to draw again."""
    d0 = rng.randrange(rank - 1)
    n_lead, n_trail = d0, rank - 2 - d0
    m = 1
    if n_trail:
        m = (_odd_width(widths_used, itemsize) // itemsize if rng.random() < 0.7
             else rng.choice(TRAIL_POW2))
    trail = _split(rng, m, n_trail)
    a = _band_dim(rng, band)
    b_lo = {"le16": 1, "mid": 17, "large": 129}[band]
    fixed = a * m * itemsize
    if n_lead == 0:
        b = _fit(b_lo, fixed, target)
        if b is None:
            return None
        lead = []
    else:
        room = target / fixed
        if room < b_lo:
            return None
        b = _log_int(rng, b_lo, max(b_lo, int(room)))
        n = _fit(1, fixed * b, target)
        if n is None:
            return None
        lead = _split(rng, n, n_lead) if rng.random() < 0.5 else _spread(rng, n, n_lead)
    pair = [a, b] if rng.random() < 0.5 else [b, a]
    return lead + pair + trail, (d0, d0 + 1), "random"


def _spread(rng, n, k):
    """k dims of product about n (not exact), each from 1 up: n's log split at random."""
    if k == 1:
        return [n]
    cuts = sorted(rng.random() for _ in range(k - 1))
    parts = [b - a for a, b in zip([0.0] + cuts, cuts + [1.0])]
    dims = [max(1, int(round(n ** p))) for p in parts]
    return dims


def _view(rng, kind, shape):
    if kind == "row_sliced":
        return {"pad": rng.choice([1, 3, 7, 16, 17, 64, 100])}
    if kind == "storage_offset":
        return {"offset": rng.randint(1, 15)}
    if kind == "transposed_view":
        rank = len(shape)
        if rng.random() < 0.5:
            return {"pair": [rank - 2, rank - 1]}
        p = rng.randrange(rank - 1)
        return {"pair": [p, rng.randrange(p + 1, rank)]}
    return {}


def swapped_min(case):
    d0, d1 = case["dims"]
    return min(case["shape"][d0], case["shape"][d1])


def trailing_bytes(case):
    return math.prod(case["shape"][case["dims"][1] + 1:]) * ITEMSIZE[case["dtype"]]


def case_class(case):
    """'odd block' (a pair before the last whose trailing block's width in bytes is no
    power of two), else by the smaller swapped dim."""
    width = trailing_bytes(case)
    if case["dims"][1] != len(case["shape"]) - 1 and width & (width - 1):
        return "odd block"
    m = swapped_min(case)
    return "dim <= 16" if m <= 16 else "dim 17-128" if m <= 128 else "dim > 128"


def case_bytes(case):
    return math.prod(case["shape"]) * ITEMSIZE[case["dtype"]]


def band_of(m):
    return "le16" if m <= 16 else "mid" if m <= 128 else "large"


def _fallback_shape(rng, band, itemsize, target):
    """A matrix that always fits: the band's dim and a filled one."""
    a = {"le16": 16, "mid": 128, "large": 129}[band]
    b = _fit(a if band == "large" else 17, a * itemsize, target)
    return [a, b], (0, 1), "matrix"


def sample_cases(n, seed=0):
    """n case specs (dicts: id, dtype, shape, dims, view, view_args, kind, template,
    bytes, class), drawn as the module docstring says."""
    rng = random.Random(seed)
    dtypes = _stratified(rng, n, {d: 1 for d in DTYPE_NAMES})
    bands = _stratified(rng, n, {b: 1 for b in BANDS})
    kinds = _stratified(rng, n, {"model": 1, "random": 1})
    views = _stratified(rng, n, VIEWS)
    ranks = iter(_stratified(rng, kinds.count("random"), {r: 1 for r in (2, 3, 4, 5)}))
    widths_used = {}
    cases = []
    for i in range(n):
        dtype, band, kind = dtypes[i], bands[i], kinds[i]
        itemsize = ITEMSIZE[dtype]
        rank = next(ranks) if kind == "random" else None
        drawn = None
        for _ in range(200):
            target = _log_uniform(rng, MIN_BYTES, MAX_BYTES)
            drawn = (_model_shape(rng, band, itemsize, target) if kind == "model"
                     else _random_shape(rng, band, itemsize, target, rank, widths_used))
            if drawn and MIN_BYTES <= math.prod(drawn[0]) * itemsize <= MAX_BYTES \
                    and band_of(min(drawn[0][drawn[1][0]], drawn[0][drawn[1][1]])) == band:
                break
            drawn = None
        if drawn is None:
            drawn = _fallback_shape(rng, band, itemsize, target)
        shape, dims, template = drawn
        case = {"id": i, "dtype": dtype, "shape": list(shape), "dims": list(dims),
                "view": views[i], "kind": kind, "template": template}
        case["view_args"] = _view(rng, views[i], shape)
        case["bytes"] = case_bytes(case)
        case["class"] = case_class(case)
        if case["class"] == "odd block":
            width = trailing_bytes(case)
            widths_used[width] = widths_used.get(width, 0) + 1
        cases.append(case)
    return cases


def allocated_elements(case):
    """Elements of the storage behind a case's input."""
    shape, args = case["shape"], case["view_args"]
    if case["view"] == "row_sliced":
        return math.prod(shape[:-1]) * (shape[-1] + args["pad"])
    if case["view"] == "storage_offset":
        return math.prod(shape) + args["offset"]
    if case["view"] == "expanded":
        return math.prod(shape) // shape[args["dim"]]
    return math.prod(shape)


# ----------------------------------------------------------------------------------
# Summary (pure)


def _geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def class_groups(items, case=lambda item: item, large_bytes=LARGE_BYTES):
    """(class, size, items) over all items, then each sweep class in order, for size "16 MiB+"
    (cases of large_bytes or more, named by its MiB) and "any size"; empty groups left out.
    `case` gives an item's case (its "class" and "bytes")."""
    classes = sorted({case(item)["class"] for item in items})
    for name, group in [("all", items)] + [(c, [i for i in items if case(i)["class"] == c])
                                          for c in classes]:
        for size, subset in ((f"{large_bytes >> 20} MiB+",
                              [i for i in group if case(i)["bytes"] >= large_bytes]),
                             ("any size", group)):
            if subset:
                yield name, size, subset


def _p95(values):
    """Nearest-rank 95th percentile."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


def slower_than_a_peer(result, margin=PEER_MARGIN):
    """Whether a peer that ran on this case is more than 3% faster than gputranspose (our
    time over its time above `margin`)."""
    times = result.get("times_us") or {}
    ours = times.get("gputranspose")
    if ours is None:
        return False
    return any(times.get(p) is not None and ours > margin * times[p] for p in PEERS)


def summarize(results, large_bytes=LARGE_BYTES):
    """The summary of a run's case results (each with bytes, wrong, times_us and
    ratio_to_copy; skipped cases are left out): counts, and gputranspose's time over
    the copy's on large (>= large_bytes: 16 MiB unless given) and small cases."""
    ran = [r for r in results if not r.get("skipped")]
    timed = [r for r in ran if not r.get("wrong")
             and (r.get("ratio_to_copy") or {}).get("gputranspose") is not None]
    large = [r["ratio_to_copy"]["gputranspose"] for r in timed if r["bytes"] >= large_bytes]
    small = [r["ratio_to_copy"]["gputranspose"] for r in timed if r["bytes"] < large_bytes]
    return {
        "cases": len(ran),
        "wrong": sum(1 for r in ran if r.get("wrong")),
        "slower_than_a_peer": sum(1 for r in timed if slower_than_a_peer(r)),
        "large_cases": len(large),
        "large_geomean": _geomean(large),
        "large_p95": _p95(large),
        "large_worst": max(large) if large else None,
        "small_geomean": _geomean(small),
        "small_worst": max(small) if small else None,
    }


def summary_lines(summary, results):
    lines = size_lines(summary, results)
    for cls in CLASSES:
        ratios = [r["ratio_to_copy"]["gputranspose"] for r in results
                  if r.get("class") == cls and (r.get("ratio_to_copy") or {}).get("gputranspose")]
        if ratios:
            lines.append(f"  {cls:11s} {len(ratios):4d} cases: geomean {_geomean(ratios):.3f}, "
                         f"worst {max(ratios):.3f}")
    return lines + peer_lines(results) + worst_lines(results, describe)


def _f3(v):
    return "-" if v is None else f"{v:.3f}"


def size_lines(summary, results, large_bytes=LARGE_BYTES):
    """The summary's counts and its large and small cases' ratios, as lines."""
    small = sum(1 for r in results if (r.get("ratio_to_copy") or {}).get("gputranspose")
                and r["bytes"] < large_bytes)
    mib = large_bytes // MIB
    return [f"cases {summary['cases']}, wrong {summary['wrong']}, "
            f"slower than a peer (> 3%) {summary['slower_than_a_peer']}",
            f"large (>= {mib} MiB, {summary['large_cases']}): time / copy geomean "
            f"{_f3(summary['large_geomean'])}, p95 {_f3(summary['large_p95'])}, worst "
            f"{_f3(summary['large_worst'])}",
            f"small (< {mib} MiB, {small}): time / copy geomean {_f3(summary['small_geomean'])}, "
            f"worst {_f3(summary['small_worst'])}"]


def peer_lines(results):
    """gputranspose's speed-up over each peer, as lines."""
    lines = []
    for peer in PEERS:
        sp = [r["times_us"][peer] / r["times_us"]["gputranspose"] for r in results
              if (r.get("times_us") or {}).get(peer) and r["times_us"].get("gputranspose")]
        if sp:
            lines.append(f"vs {peer}: speed-up geomean {_geomean(sp):.2f}, worst {min(sp):.2f} "
                         f"({len(sp)} cases, {sum(1 for s in sp if s < 1 / PEER_MARGIN)} "
                         f"with {peer} > 3% faster)")
    return lines


def worst_lines(results, describe_case, n=5):
    """The n cases with the highest time over the copy's, as lines."""
    worst = sorted((r for r in results if (r.get("ratio_to_copy") or {}).get("gputranspose")),
                   key=lambda r: -r["ratio_to_copy"]["gputranspose"])[:n]
    return [f"  worst: {describe_case(r)} {r['ratio_to_copy']['gputranspose']:.3f} x copy"
            f" ({r.get('path', '?')}"
            + (f", sector bound {r['sector_bound']:.2f}" if "sector_bound" in r else "") + ")"
            for r in worst]


def describe(case):
    args = case.get("view_args") or {}
    extra = "" if not args else " " + ",".join(f"{k}={v}" for k, v in args.items())
    return (f"{case['dtype']} {'x'.join(map(str, case['shape']))} dims "
            f"{case['dims'][0]},{case['dims'][1]} {case['view']}{extra}")


def gpu_short_name(device_name):
    """'NVIDIA H100 80GB HBM3' -> 'h100', 'NVIDIA GeForce RTX 4090' -> 'rtx4090'."""
    words = [w for w in re.split(r"[\s_-]+", device_name)
             if w and w.lower() not in ("nvidia", "geforce", "tesla", "quadro", "amd", "radeon")]
    for i, w in enumerate(words):
        if w.upper() in ("RTX", "GTX", "TITAN") and i + 1 < len(words):
            return re.sub(r"[^a-z0-9]", "", (w + words[i + 1]).lower())
        if re.search(r"\d", w):
            return re.sub(r"[^a-z0-9]", "", w.lower()) or "gpu"
    return re.sub(r"[^a-z0-9]+", "-", device_name.lower()).strip("-") or "gpu"


def sweep_figure(results, device, classes=CLASSES, colors=CLASS_COLORS, large_bytes=LARGE_BYTES,
                 title="Random-shape sweep"):
    """gputranspose's time / copy against bytes (log x), one colour per class."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5.5))
    for cls in classes:
        pts = [(r["bytes"], r["ratio_to_copy"]["gputranspose"]) for r in results
               if r.get("class") == cls and (r.get("ratio_to_copy") or {}).get("gputranspose")]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=14, alpha=0.75,
                       color=colors[cls], label=f"{cls} ({len(pts)})")
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = [MIB << k for k in range(0, 11, 2)]
    ax.set_xticks(sizes)
    ax.set_xticklabels([f"{b // MIB} MiB" if b < 1 << 30 else f"{b >> 30} GiB" for b in sizes])
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(1.05, color="gray", linewidth=0.6, linestyle="--")
    ax.axvline(large_bytes, color="gray", linewidth=0.6, linestyle=":")
    ax.set_xlabel(f"bytes (input = output; dotted: {large_bytes // MIB} MiB)")
    ax.set_ylabel("gputranspose time / copy time (dashed: 1.05)")
    ax.grid(True, which="major", axis="y", linewidth=0.3, alpha=0.5)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(f"{title}: time over a same-size copy ({device})")
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------------
# Running (GPU)


def build_input(case, torch, dtype, device="cuda"):
    """A fresh input of the case's shape, dtype and view: integers and bools random
    bytes, floating and complex values normal (finite, so that cuBLAS's arithmetic
    1 * a keeps every bit)."""
    n = allocated_elements(case)
    if dtype.is_complex or dtype.is_floating_point:
        flat = (torch.randn(n, dtype=dtype, device=device) if dtype.is_complex
                else torch.randn(n, device=device).to(dtype))
    else:
        flat = torch.randint(0, 256, (n * ITEMSIZE[case["dtype"]],), dtype=torch.uint8,
                             device=device)
        if dtype == torch.bool:
            flat %= 2
        flat = flat.view(dtype)
    shape, args, view = case["shape"], case["view_args"], case["view"]
    if view == "row_sliced":
        return flat.view(*shape[:-1], shape[-1] + args["pad"])[..., : shape[-1]]
    if view == "storage_offset":
        return flat[args["offset"]:].view(shape)
    if view == "transposed_view":
        p, q = args["pair"]
        base = list(shape)
        base[p], base[q] = base[q], base[p]
        return flat.view(base).transpose(p, q)
    if view == "permuted_view":  # base.permute(order), base contiguous
        base = [0] * len(shape)
        for i, o in enumerate(args["order"]):
            base[o] = shape[i]
        return flat.view(base).permute(args["order"])
    if view == "expanded":  # a dim of size 1 expanded (stride 0)
        base = list(shape)
        base[args["dim"]] = 1
        return flat.view(base).expand(shape)
    return flat.view(shape)


def raw_bytes(t):
    """t's bytes in logical order (NaNs compare as their bits)."""
    import torch

    return t.contiguous().view(-1).view(torch.uint8)


def transpose_function(d0, d1, key):
    """x.transpose(d0, d1).contiguous() as a function with a code object of its own, named
    for key (see keyed_function)."""
    def transpose(x):
        return x.transpose(d0, d1).contiguous()

    return keyed_function(transpose, key)


def keyed_function(fn, key):
    """fn with a code object of its own, named for key: torch.compile keeps its compiled
    graphs per code object, so that functions sharing one (lambdas from one line) would
    pile every key's graphs, and guards, on it."""
    name = fn.__name__ + "_" + "_".join(re.sub(r"\W", "", str(k)) for k in key)
    code = fn.__code__.replace(co_name=name, co_qualname=name) \
        if sys.version_info >= (3, 11) else fn.__code__.replace(co_name=name)
    keyed = types.FunctionType(code, fn.__globals__, name, None, fn.__closure__)
    keyed.__qualname__ = name
    return keyed


class Sweep:
    """Runs cases. args: reps, rounds, warmup, no_compile. The rest stand in for the GPU
    in tests: device, op (op(x, d0, d1); default torch.ops.gputranspose.transpose),
    timer (bench_transpose.time_interleaved_ms), l2_bytes, free_bytes. What is the
    transpose's own (the functions, the compile key, explain, the output's layout check)
    is in methods that the permute sweep (bench_permute.py) overrides."""

    def __init__(self, args, device="cuda", op=None, timer=None, l2_bytes=None, free_bytes=None):
        import torch

        self.torch = torch
        self.args = args
        self.device = device
        self.op = op or (lambda t, d0, d1: torch.ops.gputranspose.transpose(t, d0, d1))
        if timer is None:
            from bench_transpose import time_interleaved_ms as timer
        self.timer = timer
        self.l2 = l2_bytes if l2_bytes is not None else \
            torch.cuda.get_device_properties(0).L2_cache_size
        self.free_bytes = free_bytes or (lambda: torch.cuda.mem_get_info()[0])
        self.compiled = {}  # (rank, dtype, dims) -> compiled fn, or the error text
        self.compile_errors = {}
        self.cublas = None

    def compile_key(self, case):
        return (len(case["shape"]), case["dtype"], tuple(case["dims"]))

    def aten_function(self, case, key):
        """The ATen expression that torch.compile compiles, for key."""
        return transpose_function(*case["dims"], key)

    def compiled_for(self, case):
        key = self.compile_key(case)
        if key not in self.compiled:
            self.compiled[key] = self.torch.compile(self.aten_function(case, key), dynamic=True)
        fn = self.compiled[key]
        return key, (fn if callable(fn) else None)

    def functions(self, x, case):
        """{name: fn(x)}: the op ("gputranspose"), ATen ("aten", the reference) and the
        other peers but torch.compile."""
        from peers import geam_applies

        d0, d1 = case["dims"]
        fns = {"gputranspose": lambda t: self.op(t, d0, d1),
               "aten": lambda t: t.transpose(d0, d1).contiguous()}
        if self.cublas is not None and geam_applies(x, (d0, d1)):
            fns["cublas"] = self.cublas
        return fns

    def explain(self, x, case):
        import torch_transpose

        return torch_transpose.explain(x, *case["dims"])

    def same_layout(self, got, want, case):
        """Whether an output has the layout of ATen's (want); its bytes are checked apart."""
        return tuple(got.shape) == tuple(want.shape)

    def copies_for(self, nbytes):
        """Input copies that hold more than 2x the L2 together (at least 2)."""
        return max(2, math.ceil(2 * self.l2 / max(nbytes, 1)) + 1)

    def run_case(self, case):
        """The case's record: the case, its layout, errors, wrong, times_us and
        ratio_to_copy (or skipped, with the reason)."""
        torch = self.torch
        dtype = getattr(torch, case["dtype"])
        nbytes = case["bytes"]
        alloc = allocated_elements(case) * ITEMSIZE[case["dtype"]]
        copies = self.copies_for(nbytes)
        result = dict(case)
        # Inputs, copy sources and the copy's output, and about three outputs in flight.
        need = copies * (alloc + nbytes) + 4 * nbytes
        free = self.free_bytes()
        if need > 0.9 * free:
            copies = 2
            need = copies * (alloc + nbytes) + 4 * nbytes
            if need > 0.9 * free:
                result["skipped"] = f"needs {need / MIB:.0f} MiB, {free / MIB:.0f} MiB free"
                return result
        result["input_copies"] = copies
        x = build_input(case, torch, dtype, self.device)
        result["strides"] = list(x.stride())
        result["storage_offset"] = x.storage_offset()
        try:
            explained = self.explain(x, case)
            if isinstance(explained, dict) and "path" in explained:
                result["path"] = explained["path"]
                result["kernel"] = explained.get("kernel")
        except Exception as e:  # explain is informative only
            result["path_error"] = f"{type(e).__name__}: {e}"[:300]
        try:  # the least traffic any kernel moves, over a copy's (sector_bound.py)
            result["sector_bound"] = round(sector_bound.copy_ratio_bound(result), 4)
        except Exception as e:  # informative only
            result["sector_bound_error"] = f"{type(e).__name__}: {e}"[:300]

        fns = self.functions(x, case)
        if not self.args.no_compile:
            key, fn = self.compiled_for(case)
            if fn is not None:
                fns["compile"] = fn
            else:
                result["errors"] = {"compile": self.compile_errors[key]}
        errors = result.setdefault("errors", {})
        want = fns["aten"](x)
        expected = raw_bytes(want)
        checked = {}
        for name, fn in fns.items():
            graphs = _unique_graphs()
            try:
                got = fn(x)
                same = self.same_layout(got, want, case) and torch.equal(raw_bytes(got), expected)
                alias = got.numel() > 0 and \
                    got.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
                del got
            except Exception as e:
                if _is_fatal(e) or isinstance(e, torch.cuda.OutOfMemoryError):
                    raise
                errors[name] = f"{type(e).__name__}: {e}"[:500]
                if name == "compile":
                    key = self.compiled_for(case)[0]
                    self.compile_errors[key] = errors[name]
                    self.compiled[key] = errors[name]
                if name == "gputranspose":
                    result["wrong"] = True
                continue
            if name == "compile":
                result["compile_new_graphs"] = _unique_graphs() - graphs
            if same and alias:
                # The result's layout is x's already and this returns x as is: no work and
                # no new tensor (the op always returns one), so it is not timed.
                result.setdefault("aliases", []).append(name)
                if name == "gputranspose":
                    errors[name] = "returns a view of its input"
                    result["wrong"] = True
            elif same:
                checked[name] = fn
            else:
                errors[name] = "wrong output"
                if name == "gputranspose":
                    result["wrong"] = True
        del expected, want
        if not errors:
            del result["errors"]
        result.setdefault("wrong", False)

        inputs = [x] + [build_input(case, torch, dtype, self.device) for _ in range(copies - 1)]
        sources = [torch.empty(x.numel(), dtype=dtype, device=self.device).copy_(t.reshape(-1))
                   for t in inputs]
        out = torch.empty(x.numel(), dtype=dtype, device=self.device)
        checked["copy"] = lambda s: out.copy_(s)
        timed = {name: (fn, sources if name == "copy" else inputs) for name, fn in checked.items()}
        ms = self.timer(timed, self.args.reps, self.args.warmup, self.args.rounds,
                        head_start=True, head_start_cycles=HEAD_START_CYCLES_PER_REP)
        times = {name: t * 1000 for name, t in ms.items()}
        result["times_us"] = times
        result["ratio_to_copy"] = {name: t / times["copy"] for name, t in times.items()
                                   if name != "copy"}
        del inputs, sources, out, x, timed, checked, fns
        if nbytes >= 64 * MIB and self.device == "cuda":
            torch.cuda.empty_cache()
        return result


def _unique_graphs():
    try:
        from torch._dynamo.utils import counters

        return counters["stats"]["unique_graphs"]
    except Exception:
        return 0


def _is_fatal(e):
    """A CUDA error that leaves the context unusable (the rest of the run cannot go on)."""
    text = str(e)
    return any(s in text for s in ("illegal memory access", "unspecified launch failure",
                                   "device-side assert", "misaligned address",
                                   "illegal instruction"))


def distribution_text(doc=__doc__):
    """The docstring's paragraph on the distribution."""
    start = doc.index("The distribution")
    return doc[start: doc.index("\n\nEach case times")].strip()


def git_commit():
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, timeout=20)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                               capture_output=True, text=True, timeout=20)
        if head.returncode:
            return None
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def progress_line(i, n, elapsed, r, describe_case=describe):
    head = f"[{i}/{n} {elapsed:5.0f}s] {describe_case(r)} {r['bytes'] / MIB:.1f} MiB"
    if r.get("skipped"):
        return f"{head}: skipped ({r['skipped']})"
    if r.get("wrong"):
        return f"{head}: WRONG {r.get('errors', {}).get('gputranspose', '')}"
    ratios = r.get("ratio_to_copy", {})
    peers = " ".join(f"{p} {ratios[p]:.2f}" for p in PEERS if p in ratios)
    return f"{head}: {ratios.get('gputranspose', float('nan')):.3f} x copy | {peers}"


def run_arguments(argv, doc, default_cases, quick_cases, what, switches):
    """The options that the sweeps share, parsed from argv (switches: (flag, help) of
    further on/off options), with --cases's default and --quick's fewer reps settled."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int,
                        help=f"{what} to run (default {default_cases}; {quick_cases} with --quick)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke test: {quick_cases} {what} (unless --cases), fewer reps")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    for flag, text in switches:
        parser.add_argument(flag, action="store_true", help=text)
    parser.add_argument("--out-dir", default=os.path.join(HERE, "results"))
    parser.add_argument("--time-limit", type=float, default=0.0,
                        help="start no case after this many seconds (0: no limit); the results "
                             "record how many ran")
    args = parser.parse_args(argv)
    if args.cases is None:
        args.cases = quick_cases if args.quick else default_cases
    if args.quick:
        args.reps = min(args.reps, 8)
        args.rounds = min(args.rounds, 2)
    args.rounds = max(1, min(args.rounds, args.reps))
    return args


def gpu_ready(ops=()):
    """Whether the sweeps can run here; if not, says why on stderr: no CUDA GPU, or a build
    without the CUDA kernels or without one of ops (names in torch.ops.gputranspose)."""
    import torch

    why = None
    if not torch.cuda.is_available():
        why = "No CUDA GPU found: this benchmark times CUDA kernels and needs one."
    else:
        import torch_transpose

        lacking = [op for op in ops if not hasattr(torch.ops.gputranspose, op)]
        if not torch_transpose.has_cuda_kernels():
            why = "torch_transpose was built without its CUDA kernels (no nvcc at build time)."
        elif lacking:
            why = f"This build of torch_transpose has no gputranspose.{lacking[0]}."
    if why:
        print(why, file=sys.stderr)
    return why is None


def lift_compile_limits(torch):
    """One compiled function per key, dynamic from the first call, so shapes do not
    recompile; the few guards that layouts or size-1 dims add may still do, so lift the
    limits that would drop a function to eager."""
    for knob in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit",
                 "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, knob):
            setattr(torch._dynamo.config, knob, 1 << 20)
    if hasattr(torch._dynamo.config, "automatic_dynamic_shapes"):
        torch._dynamo.config.automatic_dynamic_shapes = True


def run_cases(sweep, cases, time_limit, describe_case=describe):
    """sweep.run_case on each case in turn, a progress line each, until time_limit seconds
    (0: none) have gone or a CUDA error ends the run: (results, aborted, stopped)."""
    torch = sweep.torch
    results, aborted, stopped = [], None, None
    start = time.time()
    for i, case in enumerate(cases, 1):
        if time_limit and time.time() - start > time_limit:
            stopped = f"time limit ({time_limit:.0f} s): {i - 1} of {len(cases)} cases ran"
            print(f"stopping: {stopped}", flush=True)
            break
        try:
            r = sweep.run_case(case)
        except Exception as e:
            # The harness's own failure (out of memory, an input it could not build), or a
            # CUDA error that ends the run (then possibly the op's: counted as wrong).
            r = dict(case)
            message = f"{type(e).__name__}: {e}"[:500]
            if _is_fatal(e):
                r["errors"] = {"run": message}
                r["wrong"] = True
                aborted = f"case {case['id']}: {message}"
            else:
                r["skipped"] = message
            try:
                torch.cuda.empty_cache()
            except Exception:  # a broken context: the loop stops below
                pass
        results.append(r)
        print(progress_line(i, len(cases), time.time() - start, r, describe_case), flush=True)
        if aborted:
            print(f"stopping: the CUDA context is unusable after {aborted}", flush=True)
            break
    return results, aborted, stopped


def run_totals_line(sweep, results, start):
    skipped = sum(1 for r in results if r.get("skipped"))
    return (f"elapsed {time.time() - start:.0f}s; skipped {skipped}; torch.compile graphs "
            f"{_unique_graphs()}; compile failures {len(sweep.compile_errors)}")


def write_results(out_dir, stem, record, fig):
    """Writes out_dir/stem.json (record) and stem.png (fig), and says so."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, stem)
    with open(path + ".json", "w") as f:
        json.dump(record, f, indent=1)
    fig.savefig(path + ".png", dpi=110)
    print(f"\nwrote {path}.json and {path}.png")


def main(argv=None):
    args = run_arguments(argv, __doc__, 500, 40, "cases",
                         [("--no-cublas", "skip cuBLAS geam (no build)")])

    if not gpu_ready():
        return 2
    import torch
    from bench_transpose import environment
    from peers import load_cublas_peer

    sweep = Sweep(args)
    if not args.no_cublas:
        sweep.cublas = load_cublas_peer()
    if not args.no_compile:
        lift_compile_limits(torch)

    env = environment()
    env.update({"git_commit": git_commit(), "seed": args.seed, "args": vars(args),
                "cublas_peer": sweep.cublas is not None})
    print(f"{env['device']}, driver {env['driver']}, torch {env['torch']} (CUDA {env['cuda']}); "
          f"{args.cases} cases, seed {args.seed}", flush=True)
    cases = sample_cases(args.cases, args.seed)
    start = time.time()
    results, aborted, stopped = run_cases(sweep, cases, args.time_limit)

    summary = summarize(results)
    print()
    print(run_totals_line(sweep, results, start))
    print("\n".join(summary_lines(summary, results)))
    write_results(args.out_dir, f"sweep-{gpu_short_name(env['device'])}",
                  {"environment": env, "distribution": distribution_text(),
                   "skipped": sum(1 for r in results if r.get("skipped")), "aborted": aborted,
                   "stopped": stopped,
                   "compile_failures": {" ".join(map(str, k)): v
                                        for k, v in sweep.compile_errors.items()},
                   "summary": summary, "cases": results},
                  sweep_figure(results, env["device"]))
    print("summary: " + json.dumps(summary))
    return 1 if aborted else 0


if __name__ == "__main__":
    sys.exit(main())
