#!/usr/bin/env bash
# v38 device call 4: copy-kernel variants against cudaMemcpy (copy_variants.cu), and
# which kernel cudaMemcpy runs (ncu, one launch of each size).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
X=benchmarks/results/experiments/v38-register-pattern-floor
G=${OUT:-$PWD/ab-out}/v38-4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
nvcc -O3 -arch=sm_90 -std=c++17 $X/copy_variants.cu -o /tmp/cv || exit 1
timeout 240 /tmp/cv > $G/copy-variants.txt 2>&1; echo "variants rc $?"
cat > /tmp/mc.py <<'PY'
import torch
for shape in [(8192, 8192), (8191, 8193)]:
    x = torch.randint(0, 255, shape, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    y.copy_(x)
torch.cuda.synchronize()
PY
timeout 120 ncu --section LaunchStats --section SpeedOfLight --section MemoryWorkloadAnalysis python3 /tmp/mc.py > $G/ncu-torch-copy.txt 2>&1; echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Block Size|Grid Size|Registers Per|Duration|DRAM Throughput|Memory Throughput|L2 Hit" $G/ncu-torch-copy.txt | head -60
python3 - $G/copy-variants.txt <<'PY'
import sys, collections, statistics
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 8 and f[1] == "MiB":
        name = " ".join(f[4:f.index("us") - 1]); t[(int(f[0]), name)].append(float(f[f.index("us") + 1]))
for (mib, name), v in t.items():
    print(f"{mib:5d} MiB {name:26s} x cudaMemcpy median {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})")
PY
date -u | tee -a $G/device.txt
