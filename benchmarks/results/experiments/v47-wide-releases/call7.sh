#!/usr/bin/env bash
# Session 2026-11-25 t, device call 7 (an H200): is the 64 MiB shapes' extra cost a tail of
# long blocks? Slices R x 8192 of R x 8209 (staged kernel, 3 blocks of 512 a SM: 396 at once,
# 32 tiles a tile-row of 128) and aligned R x 8192 (of R x 8208, and contiguous; 4 blocks a
# SM: 528) for R around whole waves: 7808 (4.93 waves staged), 7936 (5.01), 8064, 8192
# (5.17), 8320, 8448 (5.33; aligned 4.00), 8576 (aligned 4.06), 12544 (7.92), 12672 (8.00),
# 12800 (8.08). A tail of long blocks shows as a sawtooth in the ratio to the copy.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
C=""
for r in 7808 7936 8064 8192 8320 8448 12544 12672 12800; do C="$C uint8:${r}x8192:8209"; done
for r in 8064 8192 8320 8448 8576; do C="$C uint8:${r}x8192:8208 uint8:${r}x8192"; done
timeout 300 python3 benchmarks/bench_pitches.py --out $OUT/waves.json --reps 60 --rounds 6 --cases $C 2>&1 | tee $OUT/waves.txt
date -u
