#!/usr/bin/env bash
# v35 device call 5: skewed-window access-pattern oracle (skew_oracle.cu), and the real
# uint8 and bfloat16 kernels on the same shapes (bench_pitches.py, HEAD build).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so && MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?") &
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v35-walks-near-128k/skew_oracle.cu -o /tmp/so && timeout 300 /tmp/so > $G/skew-oracle.txt 2>&1; echo "oracle rc $?"
wait
PYTHONPATH=$ROOT timeout 200 python3 benchmarks/bench_pitches.py --cases uint8:8192x8192 uint8:8191x8193 bfloat16:8192x8192 bfloat16:8191x8193 bfloat16:8191x8192 \
  uint8:8191x8192 uint8:8193x8192 --out $G/real.json > $G/real.log 2>&1; echo "real rc $?"
cat $G/real.log
python3 - $G/skew-oracle.txt <<'PY'
import sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[1].isdigit():
        rows[f[0]].append((float(f[5]), f[1], f[2], f[3], f[4]))
for s, r in rows.items():
    r.sort()
    print(s, "best:", ", ".join(f"{t:.2f}us {a}x{b} A{c} {d}/SM" for t, a, b, c, d in r[:5]))
PY
date -u | tee -a $G/device.txt
