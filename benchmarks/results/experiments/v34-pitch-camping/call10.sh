#!/usr/bin/env bash
# v34 device call 10 (carry .ab): interleaved tile columns where input rows lie a multiple
# of 128 KiB apart (the working tree). a = .ab/base (v33 kernels), b = the working tree,
# c = the working tree with GPUTRANSPOSE_INTERLEAVE=0 (never interleaved). CUDA tests
# first; two rounds a, b, c.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v34-10; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
     > $G/build-$(basename $t).log 2>&1; echo "$t built rc $?") &
done
wait
(GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 150 python3 -m pytest -q -x -m cuda \
   tests/test_transpose_cuda.py 2>&1 | tail -2) | tee $G/pytest-tail.txt
CASES="float64:16384x16384 complex64:16384x16384 complex128:8192x8192 float32:4096x32768 complex128:8191x8192
 float64:8191x16384 uint8:1024x131072 bfloat16:2048x65536 complex128:16384x16384 float64:4096x32768
 complex64:4096x32768 complex128:4096x32768 float64:8192x8192 uint8:8192x8192 bfloat16:8192x8192 float64:32768x4096"
for round in 1 2; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    env=""; [ $v = c ] && env="GPUTRANSPOSE_INTERLEAVE=0"
    (cd $dir && env $env PYTHONPATH=$dir timeout 200 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c | tee $G/ab-summary.txt
date -u
cd $OUT && tar czf v34-call10.tgz v34-10
