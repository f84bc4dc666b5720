#!/usr/bin/env bash
# v34 device call 1 (carry .ab): a = HEAD's tree (.ab/base), b-e = the working tree with
# GPUTRANSPOSE_TAIL_SPLIT 0, 50, 100, 200 (the last that % of a wave of resident blocks'
# tiles taken in halves); the CUDA tests with every tile of a small input split; then the
# small shapes with the suite's old sample counts (50 reps, 5 rounds) and the new ones
# (500, 50), three times each, alternating.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v34; mkdir -p $G/ab $G/small
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print('torch', torch.__version__)" | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace \
     > $G/build-$(basename $t).log 2>&1; echo "$t built rc $?") &
done
wait
(GPUTRANSPOSE_TAIL_SPLIT=100 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 200 python3 -m pytest -q -x \
   -m cuda tests/test_transpose_cuda.py 2>&1 | tail -3) | tee $G/pytest-split100.txt
CASES="uint8:8192x8192 uint8:32768x4096 uint8:16384x16384 uint8:8191x8192 uint8:8191x8193 uint8:4096x8192
 bfloat16:8192x8192 float32:8192x8192 float64:32768x4096 complex128:8192x8192 bfloat16:8191x8193"
declare -A SPLIT=([a]=0 [b]=0 [c]=50 [d]=100 [e]=200)
for round in 1 2; do
  for v in a b c d e; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && GPUTRANSPOSE_TAIL_SPLIT=${SPLIT[$v]} PYTHONPATH=$dir timeout 120 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "tree $v round $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c,d,e | tee $G/ab-summary.txt
SMALL="--shapes 1024x1024 65536x64 64x65536 4096x64x64 --no-compile --out-dir $G/small"
for i in 1 2 3; do
  PYTHONPATH=$ROOT timeout 100 python3 benchmarks/bench_transpose.py $SMALL --small-reps 50 --small-rounds 5 \
    --tag old$i > $G/small/old$i.log 2>&1 || echo "small old $i failed"
  PYTHONPATH=$ROOT timeout 100 python3 benchmarks/bench_transpose.py $SMALL --tag new$i > $G/small/new$i.log 2>&1 \
    || echo "small new $i failed"
done
grep -h "vs cublas\|small (" $G/small/*.log
date -u
cd $OUT && tar czf v34-call1.tgz v34
