#!/usr/bin/env bash
# v34 device call 2 (carry .ab): 1-byte aligned tiles with 256-byte output runs.
# a = HEAD's tree (.ab/base, 128 x 256 tiles, 256 threads); b = the working tree (256 x 256,
# 512 threads); c = .ab/c (256 x 128, 512 threads). CUDA tests of b and c, then three
# rounds a, b, c of bench_pitches.py.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v34-2; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base . .ab/c; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=6 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
     > $G/build-$(basename $t).log 2>&1; echo "$t built rc $?") &
done
wait
for t in . .ab/c; do
  (cd $ROOT/$t && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT/$t timeout 150 python3 -m pytest -q -x -m cuda \
     tests/test_transpose_cuda.py 2>&1 | tail -2) | tee -a $G/pytest-tail.txt
done
CASES="uint8:8192x8192 uint8:32768x4096 uint8:16384x16384 uint8:4096x32768 uint8:4096x8192 uint8:8192x8192:8208
 bool:8192x8192 float8_e4m3fn:32768x4096 uint8:2048x4096"
for round in 1 2 3; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
    (cd $dir && PYTHONPATH=$dir timeout 120 python3 $ROOT/benchmarks/bench_pitches.py --cases $CASES \
       --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "tree $v round $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c | tee $G/ab-summary.txt
date -u
cd $OUT && tar czf v34-call2.tgz v34-2
