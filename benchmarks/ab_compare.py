"""The table of an A/B run of bench_pitches.py (scripts/ab-bench pitches): every JSON file
in the folders given, rows grouped by case and by the tree letter that starts their tag;
per tree the median time and ratio to the copy over its rounds (with the ratio's range),
and each tree's change in median time against the first tree.

    python3 benchmarks/ab_compare.py --trees a,b,c ab-out/ab/logs
"""

import argparse
import collections
import glob
import json
import os
import statistics


def load(folders):
    """{case: {tree: [(us, ratio to the copy), ...]}} from the folders' JSON files."""
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            for row in json.load(open(path))["rows"]:
                case = f"{row['dtype']} {row['shape']}"
                rows[case][row["tag"][:1]].append((row["gputranspose_us"], row["ours_over_copy"]))
    return rows


def table(rows, trees):
    lines = []
    for case, by_tree in rows.items():
        med = {t: statistics.median(us for us, _ in v) for t, v in by_tree.items()}
        cells = []
        for t in trees:
            if t in by_tree:
                ratios = [r for _, r in by_tree[t]]
                cells.append(f"{t} {med[t]:8.2f} us {statistics.median(ratios):.3f}x "
                             f"({min(ratios):.3f}-{max(ratios):.3f}, {len(ratios)})")
        changes = [f"{t}/{trees[0]} {100 * (med[t] / med[trees[0]] - 1):+5.1f}%"
                   for t in trees[1:] if t in med and trees[0] in med]
        lines.append(f"{case:34s} " + "  ".join(cells) + "   " + "  ".join(changes))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--trees", default="a,b", help="tree letters, the first the baseline")
    args = parser.parse_args(argv)
    print("\n".join(table(load(args.folders), args.trees.split(","))))


if __name__ == "__main__":
    main()
