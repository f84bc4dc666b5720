"""The nd-routing A/B (bench_ab.py --variant rule= --variant nd=nd_tiles=1) by what would
decide a rule: the rule's kernel family, the nd tiles' output and input sides in bytes, and
the element size; for each group the geometric mean of nd's time over the rule's and over
ATen's, and how many cases nd wins (3% margin), large cases (16 MiB or more) apart.

    python experiments/nd-routing/analyze_ab.py ab-nd-permute.json [ab-nd-transpose.json ...]
"""

import json
import math
import re
import sys
from collections import defaultdict

LARGE = 16 << 20
ND = re.compile(r"nd_tiles<e=(\d+), tile=(\d+)x(\d+)")


def features(record):
    """(family of the rule's kernel, nd's output side bytes bucket, element size) or None."""
    m = ND.match(record["kernels"].get("nd", ""))
    if not m:
        return None
    e, tile_in, tile_out = (int(g) for g in m.groups())
    out_bytes = tile_out * e
    bucket = "<64" if out_bytes < 64 else "64-127" if out_bytes < 128 else ">=128"
    family = record["kernels"]["rule"].split("<")[0]
    return family, bucket, e


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(paths):
    groups = defaultdict(list)
    for path in paths:
        for r in json.load(open(path))["records"]:
            f = features(r)
            if f is None or "ratio" not in r or r.get("wrong"):
                continue
            groups[f + ("large" if r["bytes"] >= LARGE else "small",)].append(r["ratio"])
    print(f"{'rule kernel':18} {'nd out':7} {'e':>2} {'size':5} {'n':>3} "
          f"{'nd/rule':>8} {'nd/aten':>8} {'nd wins':>8}")
    for key in sorted(groups):
        ratios = groups[key]
        wins = sum(1 for t in ratios if t["nd"] * 1.03 < t["rule"])
        print(f"{key[0]:18} {key[1]:7} {key[2]:>2} {key[3]:5} {len(ratios):>3} "
              f"{geomean(t['nd'] / t['rule'] for t in ratios):8.3f} "
              f"{geomean(t['nd'] / t['aten'] for t in ratios):8.3f} {wins:>5}/{len(ratios)}")


if __name__ == "__main__":
    main(sys.argv[1:])
