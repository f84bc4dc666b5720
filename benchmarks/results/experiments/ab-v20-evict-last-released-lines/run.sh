#!/usr/bin/env bash
# Device call 1 (session 2026-11-21 b): A/B a = main (v20), b = evict_last aligned loads
# with their lines released after the tile's barrier + 2-byte word-loaded skewed tiles
# 128 columns at 256 threads, c = b without the release (v15's evict_last).
# Then the L2-after test for each tree and b's CUDA tests.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$OUT/ab AB_ROUNDS=3 timeout 420 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex128 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 8191x8193 8191x8192 32x2048x2048
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== l2 after transpose: $v"
  (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/benchmarks/results/experiments/l2_after_transpose.py 2>&1 | grep -v none)
done | tee $OUT/ab/l2-after.txt
grep -h "registers\|spill" $OUT/ab/build-b.log | grep -c "0 bytes spill stores"
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 150 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider 2>&1 | tail -3
