#!/usr/bin/env bash
# Session 2026-11-25 t, device call 8 (an H200): the per-call cost of call 5-7's fits, by
# whole waves. uint8 slices R x 8192 of R x 8209 (396 blocks at once, 32 tiles a tile-row of
# 128: R = 1536 is one wave less 12 blocks) and aligned R x 8192 (528 at once: R = 2048 is
# one wave less 16) at 1 to 5 waves: the first wave's time against each further wave's.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
C=""
for r in 1536 3072 4608 6144 7680; do C="$C uint8:${r}x8192:8209"; done
for r in 2048 4096 6144 8192 10240; do C="$C uint8:${r}x8192"; done
timeout 300 python3 benchmarks/bench_pitches.py --out $OUT/first-wave.json --reps 100 --rounds 10 --cases $C 2>&1 | tee $OUT/first-wave.txt
date -u
