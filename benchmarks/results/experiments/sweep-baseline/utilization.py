"""Tile utilization (elements / launched tile area, from the kernel choice) of the sweep's
tiled cases against how often ATen beats the op. Build choose.cpp first:
    g++ -std=c++17 -I csrc choose.cpp csrc/core/kernel_choice.cpp csrc/core/layout_plan.cpp -o choose
    python utilization.py sweep-h200.json ./choose"""
import json
import math
import subprocess
import sys

ITEM = {"bool": 1, "uint8": 1, "int8": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "int16": 2,
        "float16": 2, "bfloat16": 2, "uint16": 2, "int32": 4, "float32": 4, "uint32": 4,
        "complex32": 4, "int64": 8, "float64": 8, "complex64": 8, "uint64": 8, "complex128": 16}
cases = [c for c in json.load(open(sys.argv[1]))["cases"] if "gputranspose" in c.get("ratio_to_copy", {})]
lines = []
for c in cases:
    n = len(c["shape"])
    lines.append(f"{n} {ITEM[c['dtype']]} {c['storage_offset']} {c['dims'][0] % n} {c['dims'][1] % n} "
                 + " ".join(map(str, c["shape"])) + " " + " ".join(map(str, c["strides"])))
out = subprocess.run([sys.argv[2]], input="\n".join(lines) + "\n", capture_output=True, text=True).stdout.split("\n")
bins = {}
for c, o in zip(cases, out):
    f = o.split(" ", 8)
    if f[0] not in ("tiled_contiguous", "tiled_row_strided"):
        continue
    blocks, tr, tc, b, rows, cols, _ = map(int, f[1:8])
    u = b * rows * cols / (blocks * tr * tc)
    r = c["ratio_to_copy"]
    key = "<0.1" if u < 0.1 else "0.1-0.25" if u < 0.25 else "0.25-0.5" if u < 0.5 else ">=0.5"
    s = bins.setdefault(key, [0, 0, []])
    s[0] += 1
    s[1] += r.get("aten") is not None and r["aten"] * 1.03 < r["gputranspose"]
    s[2].append(r["gputranspose"])
for key, (n, aten, ratios) in bins.items():
    print(f"utilization {key}: {n} cases, ATen >3% faster in {aten}, "
          f"geomean op/copy {math.exp(sum(map(math.log, ratios)) / n):.2f}")
