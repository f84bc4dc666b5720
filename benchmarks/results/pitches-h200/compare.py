"""The pitch sweep's two builds side by side: medians of their rounds.
python3 compare.py [LABEL_A LABEL_B]  (in a sweep's folder) -> summary.txt
(labels default to this folder's builds: v26 and v27)"""
import glob
import json
import statistics
import sys

label_a, label_b = sys.argv[1:3] if len(sys.argv) > 2 else ("v26", "v27")

rows = {}
for path in sorted(glob.glob("pitches-*.json")):
    build = path.split("-")[1][0]  # a or b
    for r in json.load(open(path))["rows"]:
        rows.setdefault((r["dtype"], r["shape"], r["output_row_bytes"]), {}).setdefault(build, []).append(r)
print(f"dtype      shape      out row bytes (mod 32)   {label_a} us  x copy   {label_b} us  x copy  change")
for (dtype, shape, row_bytes), by in rows.items():
    a, b = (statistics.median(r["gputranspose_us"] for r in by[k]) for k in "ab")
    ra, rb = (statistics.median(r["ours_over_copy"] for r in by[k]) for k in "ab")
    print(f"{dtype:10s} {shape:10s} {row_bytes:7d} ({row_bytes % 32:2d})           "
          f"{a:7.1f} {ra:6.3f}  {b:7.1f} {rb:6.3f}  {100 * (b / a - 1):+5.1f}%")
