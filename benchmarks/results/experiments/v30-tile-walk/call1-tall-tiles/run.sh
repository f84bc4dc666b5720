#!/usr/bin/env bash
# Session 2026-11-21 g, device call 1 (H200): A/B a = HEAD (v29), b = evict_last
# (past-L2) instances of 8-byte elements on 128 x 32 tiles (1 KiB output runs),
# c = b + past-L2 tiles 128 x 64 (4-byte), 128 x 32 (16-byte), 256 x 256 (1-byte),
# 256 x 128 (2-byte).
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 480 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex64 complex128 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 32x2048x2048 4096x64x64 8191x8192 | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
tail -3 $OUT/ab/build-*.log
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
