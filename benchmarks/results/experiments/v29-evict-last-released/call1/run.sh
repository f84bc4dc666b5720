#!/usr/bin/env bash
# Session 2026-11-21 f, device call 1 (H200): A/B a = HEAD (v28), b = aligned loads of
# aligned-store one-matrix tiles at evict_last, each line released (applypriority, one per
# line, by the thread whose piece starts it) after the tile's stores; c = the same loads,
# released by one bulk L2 prefetch at evict_normal per tile row. Then the L2-after test.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=2 timeout 430 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex128 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 32x2048x2048 8191x8192
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== l2 after transpose: $v"
  (cd $dir && PYTHONPATH=$dir timeout 40 python3 $ROOT/benchmarks/results/experiments/l2_after_transpose.py 2>&1 | grep -v none)
done | tee $OUT/ab/l2-after.txt
grep -h "spill" $OUT/ab/build-b.log $OUT/ab/build-c.log | grep -vc " 0 bytes spill stores"
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
