#!/usr/bin/env bash
# Session 2026-11-22 j, device call 1: access-pattern oracle (benchmarks/experiments/
# access_patterns.cu) on odd pitches; then the real kernels on the same shapes.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=$OUT/v33; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so; python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?") &
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v33-cut-micro-blocks/call1-access-patterns/access_patterns.cu -o /tmp/ap && timeout 240 /tmp/ap > $G/patterns.txt 2>&1; echo "ap rc $?"
wait
tail -3 /tmp/build.log
PYTHONPATH=$PWD timeout 200 python3 .ab/otime.py real uint8/8192x8192 uint8/8191x8192 uint8/8193x8192 uint8/8191x8193 \
  uint8/8192x8193 uint8/8192x8209[:,:-17] uint8/8192x8177 uint8/16384x16383 > $G/real.jsonl 2>&1; echo "real rc $?"
cat $G/real.jsonl | cut -c1-200
python3 - $G/patterns.txt <<'PY'
import sys, collections
best = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[1].isdigit():
        best[f[0]].append((float(f[6]), f[1], f[2], f[3], f[4]))
for s, rows in best.items():
    rows.sort()
    ref = [r for r in rows if r[1:5] == ('128', '256', '3', 'column')]
    print(s, 'best', rows[:4], 'x128x256/3/col', ref[:1])
PY
date -u
