#!/usr/bin/env bash
# Device call 8: a = main, b = full 16-byte output stores of one-matrix tiles at L2
# priority evict_first (cache_hint). ncu (call 7) put evict_last loads' gain on when
# output lines leave L2, not on re-reads. Then the L2-after test and b's CUDA tests.
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$OUT/ab AB_ROUNDS=3 timeout 200 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 float32 float64 --shapes 8192x8192 32768x4096 8191x8192 8191x8193
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/summary.txt
for v in a b; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
  echo "== l2 after transpose: $v"
  (cd $dir && PYTHONPATH=$dir timeout 30 python3 $ROOT/benchmarks/results/experiments/l2_after_transpose.py 2>&1 | grep -v none)
done | tee $OUT/ab/l2-after.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 40 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider 2>&1 | tail -1
cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . && cd $ROOT && rm -rf $OUT/ab
