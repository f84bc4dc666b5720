#!/usr/bin/env bash
# Session 2026-11-21 g, device call 2 (H200): A/B a = HEAD (v29), b = evict_last
# (past-L2) instances on tiles of their own, 128 rows tall for 4- to 16-byte elements
# (128 x 64, 128 x 32, 128 x 32), taken only by matrices of at least 128 rows;
# c = b with 16-byte elements' past-L2 tile left at 64 x 32 (so c - b on 4- and
# 8-byte rows is the run's noise, on complex128 the tall tile's effect).
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 480 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes float32 float64 complex64 complex128 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 32x2048x2048 4096x64x64 8191x8192 8191x8193 '8192x8209[:,:-17]' | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
echo "== l2 after op: b"
PYTHONUNBUFFERED=1 timeout 90 python3 benchmarks/l2_after_op.py --dtypes float32 float64 complex128 \
  --shapes 8192x8192 32768x4096 --out $OUT/ab/l2-after-b.json 2>&1 | tee $OUT/ab/l2-after-b.txt
grep -h -A3 "error\|warning" $OUT/ab/build-*.log | head -20
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
