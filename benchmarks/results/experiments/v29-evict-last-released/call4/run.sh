#!/usr/bin/env bash
# Session 2026-11-21 f, device call 3 (H200): A/B a = HEAD (v28), b = v29 (evict_last aligned
# loads released, aligned-store kernels), c = b + word-shifted and staged loads at evict_last,
# released likewise (every kernel but the skewed aligned-load ones). Then L2 after each op.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex128 \
  --shapes 8191x8193 "8192x8209[:,:-17]" 8192x8192 16384x16384
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== l2 after op: $v"
  (cd $dir && PYTHONPATH=$dir timeout 80 python3 $ROOT/benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float64 --out $OUT/ab/l2-after-$v.json 2>&1)
done | tee $OUT/ab/l2-after.txt
rm -f $OUT/ab/build-*.log
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
