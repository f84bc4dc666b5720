#!/usr/bin/env bash
# v50 device call 1 (an H200): where the per-call part of pitched inputs comes from. v47 fit
# ours and the copy as a slope plus a fixed time from 64 and 256 MiB and found the uint8
# slices 3.3 us a call over the copy's fixed time, aligned rows 16 bytes past a sector 2.7 us
# (the aligned kernel), contiguous rows 0.9 us. Here uint8 inputs of R x 8192 elements, R =
# 8192, 16384, 32768 (64, 128, 256 MiB), at input pitches that are multiples of 16 (the
# aligned kernel) and odd (the staged kernel), the product code of HEAD; fit.py fits each.
# From the repository root.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1
cases=""
for r in 8192 16384 32768; do
  for p in 8192 8208 8224 8256 8320 8448 8704 9216 8193 8209 8257 8321; do cases="$cases uint8:${r}x8192:$p"; done
done
PYTHONPATH=$PWD timeout 500 python3 benchmarks/bench_pitches.py --out $OUT/sweep.json --cases $cases 2>&1 | tee $OUT/sweep.txt
python3 benchmarks/results/experiments/v50-pitch-fixed-cost/fit.py $OUT/sweep.json | tee $OUT/fit.txt
date -u
