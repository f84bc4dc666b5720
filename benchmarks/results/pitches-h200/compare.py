"""The pitch sweep's two builds side by side: medians of their rounds.
python3 compare.py  (in this folder) -> summary.txt"""
import glob
import json
import statistics

rows = {}
for path in sorted(glob.glob("pitches-*.json")):
    build = path.split("-")[1][0]  # a: 419bb03 (v26), b: 3f5395e (v27)
    for r in json.load(open(path))["rows"]:
        rows.setdefault((r["dtype"], r["shape"], r["output_row_bytes"]), {}).setdefault(build, []).append(r)
print("dtype      shape      out row bytes (mod 32)   v26 us  x copy   v27 us  x copy  change")
for (dtype, shape, row_bytes), by in rows.items():
    a, b = (statistics.median(r["gputranspose_us"] for r in by[k]) for k in "ab")
    ra, rb = (statistics.median(r["ours_over_copy"] for r in by[k]) for k in "ab")
    print(f"{dtype:10s} {shape:10s} {row_bytes:7d} ({row_bytes % 32:2d})           "
          f"{a:7.1f} {ra:6.3f}  {b:7.1f} {rb:6.3f}  {100 * (b / a - 1):+5.1f}%")
