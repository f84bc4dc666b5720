"""Compares bench_pitches.py runs of several trees (A/B): every JSON file in the folders
given, rows grouped by case and the tag's tree letter; median time over the rounds,
and each tree's change against the first tree named (default a)."""

import collections
import glob
import json
import statistics
import sys

folders = [a for a in sys.argv[1:] if not a.startswith("--trees=")]
trees = next((a[8:] for a in sys.argv[1:] if a.startswith("--trees=")), "a,b").split(",")
times = collections.defaultdict(lambda: collections.defaultdict(list))
ratios = collections.defaultdict(lambda: collections.defaultdict(list))
for folder in folders:
    for path in sorted(glob.glob(f"{folder}/*.json")):
        for row in json.load(open(path))["rows"]:
            case = f"{row['dtype']} {row['shape']}"
            times[case][row["tag"][0]].append(row["gputranspose_us"])
            ratios[case][row["tag"][0]].append(row["ours_over_copy"])
for case, by_tree in times.items():
    med = {t: statistics.median(v) for t, v in by_tree.items()}
    cells = [f"{t} {med[t]:8.2f} us {statistics.median(ratios[case][t]):.3f}x ({len(by_tree[t])})"
             for t in trees if t in med]
    changes = [f"{t}/{trees[0]} {100 * (med[t] / med[trees[0]] - 1):+5.1f}%"
               for t in trees[1:] if t in med and trees[0] in med]
    print(f"{case:34s} " + "  ".join(cells) + "   " + "  ".join(changes))
