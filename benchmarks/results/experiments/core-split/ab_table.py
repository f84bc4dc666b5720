"""Rows of two benchmark runs side by side: each (dtype, shape)'s time over the copy's in
run A and run B, and B's change against A's."""
import json
import statistics
import sys

args = sys.argv[1:]
split = args.index("--")


def rows(paths):
    out = {}
    for path in paths:
        for r in json.load(open(path))["rows"]:
            out[(r["dtype"], r["shape"])] = r
    return out


a, b = rows(args[:split]), rows(args[split + 1:])
changes = []
print(f"{'dtype':14} {'shape':22} {'A/copy':>7} {'B/copy':>7} {'B vs A':>8}")
for key in a:
    if key not in b:
        continue
    ra, rb = a[key], b[key]
    # Each run's time over its own copy's, so that drift between the runs cancels.
    change = rb["ours_over_copy"] / ra["ours_over_copy"] - 1
    changes.append((change, key, ra["size_class"]))
    print(f"{key[0]:14} {key[1]:22} {ra['ours_over_copy']:7.3f} {rb['ours_over_copy']:7.3f} {100 * change:+10.1f}%")
for cls in ("large", "small", "dims"):
    c = [x[0] for x in changes if x[2] == cls]
    if c:
        worst = max(x for x in changes if x[2] == cls)
        print(f"{cls}: {len(c)} rows, median {100 * statistics.median(c):+.2f}%, "
              f"range {100 * min(c):+.1f}% .. {100 * max(c):+.1f}% (slowest {worst[1]})")
