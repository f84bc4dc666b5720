#!/usr/bin/env bash
# Session 2026-11-21 f, device call 10 (H200): A/B a = HEAD (v29: each tile releases its own
# input lines after its stores), b = a tile releases the lines of the tile one wave of
# resident blocks before it (the last wave its own), c = four waves before.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 360 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex128 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 32x2048x2048 | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== l2 after op: $v"
  (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/benchmarks/l2_after_op.py --shapes 8192x8192 --out $OUT/ab/l2-after-$v.json 2>&1)
done | tee $OUT/ab/l2-after.txt
rm -f $OUT/ab/build-*.log
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
