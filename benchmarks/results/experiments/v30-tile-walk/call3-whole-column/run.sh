#!/usr/bin/env bash
# Session 2026-11-21 g, device call 3 (H200): A/B a = HEAD (v29, blocks walk groups
# of 256 tile-rows), b = a whole column of tiles per group (only 32768-row shapes
# with 64-row tiles have more than 256 tile-rows), c = v29 with evict_last 8-byte
# tiles 128 x 32 (call 2's b, 8-byte only; 32768x4096 then also walks whole columns).
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 480 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex64 complex128 \
  --shapes 32768x4096 4096x32768 16384x16384 32x2048x2048 | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
