"""The least DRAM traffic any kernel needs for a case, as a ratio to a same-size copy's, and
how far each measured time sits from it.

    python benchmarks/sector_bound.py [benchmarks/results/sweep-h200.json]

DRAM moves 32-byte sectors. A copy of B bytes reads B and writes B. A transpose writes its
B bytes of output (dense, aligned) but reads every sector that holds a byte of the input:
where the input's values lie apart (a row slice keeping 3 bytes of every 103, one value of
every 18), that is up to 32 bytes per value, and any kernel moves

    bound = (32 x input sectors + B) / (2 x B)    times the copy's traffic.

At the copy's bandwidth that is the least time / copy time; a kernel can dip under it where
its pure reads stream faster than a copy's mix of reads and writes, or where the copy (a
small one) does not reach the bandwidth: the bound tells what no kernel can approach, not
a floor to a percent.
The sectors are counted exactly along the input's fastest strided dim (its runs of
contiguous bytes at their pitch, from the data pointer's offset mod 32) and summed over the
other dims, whose line starts mod 32 are counted by their strides; where lines interleave
(a transposed view) the count is capped by the sectors the tensor's extent spans. The input
buffer's base is taken as 256-byte aligned (CUDA's allocations are).
"""

import argparse
import collections
import json
import math
import os

import numpy as np

SECTOR = 32
DTYPE_BYTES = {"bool": 1, "uint8": 1, "int8": 1, "float8_e4m3fn": 1, "float8_e5m2": 1,
               "float16": 2, "bfloat16": 2, "int16": 2, "float32": 4, "int32": 4,
               "float64": 8, "int64": 8, "complex64": 8, "complex128": 16}


def _line_sectors(start, run, pitch, count):
    """Distinct sectors of `count` runs of `run` bytes, `pitch` bytes apart, from byte `start`.
    Each run adds the sectors past its predecessor's; that depends only on where the two lie
    mod 32, which repeats every `period` runs, so one period counts for all."""
    period = SECTOR // math.gcd(pitch % SECTOR or SECTOR, SECTOR)
    n = min(count, 1 + period)
    pos = start + pitch * np.arange(n, dtype=np.int64)
    lo, hi = pos // SECTOR, (pos + run - 1) // SECTOR
    prev_hi = np.concatenate(([lo[0] - 1], np.maximum.accumulate(hi)[:-1]))
    added = np.maximum(hi - np.maximum(lo, prev_hi + 1) + 1, 0)
    if count <= n:
        return int(added.sum())
    full, rest = divmod(count - 1, period)
    return int(added[0] + full * added[1:].sum() + added[1:1 + rest].sum())


def input_sectors(shape, strides, itemsize, byte_offset):
    """Distinct 32-byte sectors that the strided tensor's values touch."""
    dims = sorted((s * itemsize, n) for n, s in zip(shape, strides) if n > 1 and s != 0)
    if any(n == 0 for n in shape):
        return 0
    run = itemsize
    while dims and dims[0][0] == run:  # contiguous dims fuse into the run
        run *= dims.pop(0)[1]
    if not dims:
        return _line_sectors(byte_offset, run, run, 1)
    pitch, count = dims.pop(0)
    span = (count - 1) * pitch + run
    # The outer dims' line starts mod 32: a histogram, built dim by dim (cyclic convolution).
    starts = np.zeros(SECTOR, dtype=np.int64)
    starts[byte_offset % SECTOR] = 1
    lines = 1
    for stride, n in dims:
        step = np.zeros(SECTOR, dtype=np.int64)
        np.add.at(step, (stride * np.arange(min(n, SECTOR * 64))) % SECTOR, 1)
        if n > SECTOR * 64:  # k x stride mod 32 repeats with a period dividing 32
            period = SECTOR // math.gcd(stride % SECTOR or SECTOR, SECTOR)
            full, rest = divmod(n, period)
            step = np.zeros(SECTOR, dtype=np.int64)
            np.add.at(step, (stride * np.arange(period)) % SECTOR, full)
            np.add.at(step, (stride * np.arange(rest)) % SECTOR, 1)
        starts = np.array([sum(starts[(r - q) % SECTOR] * step[q] for q in range(SECTOR))
                           for r in range(SECTOR)], dtype=np.int64)
        lines *= n
    per_start = {a: _line_sectors(a, run, pitch, count) for a in range(SECTOR) if starts[a]}
    total = sum(int(starts[a]) * s for a, s in per_start.items())
    if dims and dims[0][0] < span + SECTOR:  # lines interleave: the extent caps the count
        extent = span + sum((n - 1) * s for s, n in dims)
        total = min(total, (byte_offset % SECTOR + extent + SECTOR - 1) // SECTOR)
    return total


def copy_ratio_bound(case):
    """The least traffic / a copy's traffic of any kernel on a sweep case."""
    itemsize = DTYPE_BYTES[case["dtype"]]
    nbytes = itemsize * math.prod(case["shape"])
    if nbytes == 0:
        return 1.0
    sectors = input_sectors(case["shape"], case["strides"], itemsize,
                            case["storage_offset"] * itemsize)
    return (SECTOR * sectors + nbytes) / (2 * nbytes)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sweep", nargs="?", default=os.path.join(here, "results", "sweep-h200.json"))
    parser.add_argument("--worst", type=int, default=10, help="list this many cases farthest from the bound")
    args = parser.parse_args()
    sweep = json.load(open(args.sweep))
    rows = []
    for case in sweep["cases"]:
        ours = case.get("ratio_to_copy", {}).get("gputranspose")
        if ours is None:
            continue
        rows.append((case, copy_ratio_bound(case), ours))
    gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    large = [r for r in rows if r[0]["bytes"] >= 16 << 20]
    print(f"{args.sweep}: {len(rows)} cases; a same-size copy = 1")
    print(f"cases of 16 MiB or more whose sector bound exceeds 1.25x the copy: "
          f"{sum(r[1] > 1.25 for r in large)} of {len(large)}")
    by_class = collections.defaultdict(list)
    for r in large:
        by_class[r[0]["class"]].append(r)
    print(f"{'class (16 MiB+)':16} {'cases':>5} {'bound':>7} {'ours':>7} {'ours/bound':>10}   (geometric means)")
    for name in sorted(by_class):
        v = by_class[name]
        print(f"{name:16} {len(v):5} {gm([r[1] for r in v]):7.2f} {gm([r[2] for r in v]):7.2f} "
              f"{gm([r[2] / r[1] for r in v]):10.2f}")
    print(f"worst cases of 16 MiB or more, by time / copy, with their bound:")
    for case, bound, ours in sorted(large, key=lambda r: -r[2])[:args.worst]:
        aten = case["ratio_to_copy"].get("aten", float("nan"))
        print(f"  {case['id']:4} {case['dtype']:13} {str(case['shape']):26} dims {case['dims']} "
              f"{case['view']:15} ours {ours:6.2f} bound {bound:6.2f} aten {aten:6.2f} ({case['path']})")


if __name__ == "__main__":
    main()
