"""Kernels whose ptxas report (registers, spills) differs between two `scripts/gpu-check`
ptxas.txt files: python3 ptxas_diff.py OLD NEW."""
import re
import sys


def kernels(path):
    report, name = {}, None
    for line in open(path):
        if m := re.search(r"Compiling entry function '(\S+)'", line):
            name = m.group(1)
        elif name and ("Used" in line or "spill" in line):
            report[name] = report.get(name, "") + line.strip() + "; "
    return report


old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
print(f"{len(new)} kernels, {len(changed)} differ from {sys.argv[1]}")
for k in changed:
    print(f"  {k}\n    old: {old.get(k)}\n    new: {new.get(k)}")
