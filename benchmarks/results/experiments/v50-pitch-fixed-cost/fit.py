"""Least-squares fit of time = slope x bytes + fixed, for ours and the copy, per input pitch
(rows of one sweep.json from bench_pitches.py): the per-call part over the copy's
(fixed_ours - fixed_copy) and the slopes' ratio.

    python3 fit.py sweep.json
"""
import collections
import json
import sys


def fit(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return slope, my - slope * mx


def main(path):
    rows = json.load(open(path))["rows"]
    by_pitch = collections.defaultdict(list)
    for r in rows:
        rows_, cols = (int(v) for v in r["shape"].split(" ")[0].split("x"))
        by_pitch[(r["dtype"], r["input_pitch"])].append((rows_ * cols, r["gputranspose_us"], r["copy_us"]))
    print(f"{'dtype':6s} {'pitch':>6s} {'pitch%128':>9s} {'slope ratio':>11s} {'fixed ours-copy us':>18s}  x copy by size")
    for (dtype, pitch), pts in sorted(by_pitch.items()):
        pts.sort()
        so, fo = fit([(b, us) for b, us, _ in pts])
        sc, fc = fit([(b, us) for b, _, us in pts])
        ratios = " ".join(f"{us / cu:.3f}" for _, us, cu in pts)
        print(f"{dtype:6s} {pitch:6d} {pitch % 128:9d} {so / sc:11.4f} {fo - fc:18.2f}  {ratios}")


if __name__ == "__main__":
    main(sys.argv[1])
