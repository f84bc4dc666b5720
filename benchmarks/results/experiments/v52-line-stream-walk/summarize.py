"""Ranges over the rounds of line_walk_probe.cu's output: python3 summarize.py callN/probe.txt"""
import collections
import re
import sys

rows = collections.defaultdict(list)
pat = re.compile(r"(.{28}) round \d (walk S\d+ +\w+(?: +\w+)?|cudaMemcpy)\s+([\d.]+) us"
                 r"(?: \| product\s+[\d.]+ us\s+([\d.]+) x copy)?(?:\s+([\d.]+) x copy\s+([\d.]+) x product)?")
for line in open(sys.argv[1]):
    m = pat.match(line)
    if not m:
        continue
    name = m.group(1).strip()
    if m.group(2) == "cudaMemcpy":
        rows[(name, "product")].append((float(m.group(4)), 1.0))
    else:
        rows[(name, re.sub(" +", " ", m.group(2)))].append((float(m.group(5)), float(m.group(6))))
for (name, what), v in rows.items():
    copy = f"{min(a for a, _ in v):.3f}-{max(a for a, _ in v):.3f} x copy"
    prod = "" if what == "product" else f", {min(b for _, b in v):.3f}-{max(b for _, b in v):.3f} x product"
    print(f"{name:28s} {what:18s} {copy}{prod}")
