#!/usr/bin/env bash
# Session 2026-11-21 g, device call 8 (H200): A/B a = HEAD (v30), b = evict_last (past-L2)
# 8-byte tiles 64 x 64 (one 64x64 matrix a tile; 512-byte input runs), c = no evict_last for
# batches (plain loads where batch > 1). Then each tree with torch.compile on float64 4096x64x64.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes float32 float64 complex64 complex128 \
  --shapes 4096x64x64 32x2048x2048 8192x8192 16384x16384 4096x32768 32768x4096 | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
mkdir -p $OUT/ab/compile
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  (cd $dir && PYTHONPATH=$dir timeout 100 python3 benchmarks/bench_transpose.py --reps 50 --rounds 5 \
     --dtypes float64 --shapes 4096x64x64 32x2048x2048 --out-dir $OUT/ab/compile --tag $v 2>&1 | grep -E '^float64')
done | tee $OUT/ab/compile.txt
rm -f $OUT/ab/compile/*.png
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
