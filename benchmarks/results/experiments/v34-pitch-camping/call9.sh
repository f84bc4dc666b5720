#!/usr/bin/env bash
# v34 device call 9 (carry .ab): tile columns walked K apart (col-stride.diff), so that the
# few tile columns in flight at once lie far apart in each row. a = .ab/base (v33 kernels);
# b-e = the working tree at GPUTRANSPOSE_COL_STRIDE 1, tiles_c/2+1, 17, 5. Two rounds.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v34-9; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace \
     > $G/build-$(basename $t).log 2>&1; echo "$t built rc $?") &
done
wait
(GPUTRANSPOSE_COL_STRIDE=0 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 150 python3 -m pytest -q -x -m cuda \
   tests/test_transpose_cuda.py 2>&1 | tail -2) | tee $G/pytest-stride-half.txt
CASES="float64:16384x16384 complex64:16384x16384 complex128:8192x8192 float32:4096x32768 float64:8192x8192
 float64:32768x4096 uint8:8192x8192 bfloat16:8192x8192 float64:16384x16384:16512 complex128:8191x8192"
declare -A K=([a]=1 [b]=1 [c]=0 [d]=17 [e]=5)
for round in 1 2; do
  for v in a b c d e; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && GPUTRANSPOSE_COL_STRIDE=${K[$v]} PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c,d,e | tee $G/ab-summary.txt
date -u
cd $OUT && tar czf v34-call9.tgz v34-9
