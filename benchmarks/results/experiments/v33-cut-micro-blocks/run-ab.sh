#!/usr/bin/env bash
# v33's A/B on the GPU machine (carry .ab): a = HEAD's tree in .ab/base (scripts/ab-bench
# prepare HEAD), b = the working tree, c = a variant in .ab/c; the CUDA tests of b and c,
# then rounds (two) a, b, c of bench_pitches.py over odd-column shapes and suite rows.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v33; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base . .ab/c; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=6 python3 setup.py build_ext --inplace \
     > /tmp/build-$(basename $t).log 2>&1; echo "$t built rc $?") &
done
wait
for t in . .ab/c; do
  (cd $ROOT/$t && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT/$t timeout 150 python3 -m pytest -q -m cuda \
     tests/test_transpose_cuda.py tests/test_fuzz.py 2>&1 | tail -2) | tee -a $G/pytest-tail.txt
done
CASES=${CASES:-"uint8:8192x8193 uint8:8192x8193:8208 uint8:8191x8193:8208 bfloat16:8192x8191 bfloat16:8192x8193:8200
 uint8:8192x8192 uint8:16384x16384 uint8:8191x8192 uint8:32768x4096 uint8:8191x8193 uint8:8192x8192:8209
 bfloat16:8192x8192:8209 bfloat16:8191x8193"}
for round in ${ROUNDS:-1 2}; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
    (cd $dir && PYTHONPATH=$dir timeout 120 python3 $ROOT/benchmarks/bench_pitches.py --cases $CASES \
       --tag $v$round --out $G/ab/$v$round.json > /dev/null 2>&1) || echo "tree $v round $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c | tee $G/ab-summary.txt
date -u
