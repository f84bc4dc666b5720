#!/usr/bin/env bash
# v34 device call 8: the block walk against rows 128 KiB apart. GPUTRANSPOSE_TILE_GROUP
# (tile-rows walked together before the next tile column; default a whole column) at
# 1, 2, 4, 8, 32 and the default, over the rows that call 7 found pitch-bound and controls,
# one build, two rounds of every setting.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT
G=${OUT:-$ROOT/ab-out}/v34-8; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so && MAX_JOBS=12 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"
CASES="float64:16384x16384 complex64:16384x16384 complex128:8192x8192 float32:4096x32768 complex128:16384x16384
 complex128:8191x8192 float64:4096x32768 float64:8192x8192 float64:32768x4096 float64:16384x16384:16512"
declare -A GROUP=([a]=0 [b]=1 [c]=2 [d]=4 [e]=8 [f]=32)
for round in 1 2; do
  for v in a b c d e f; do
    GPUTRANSPOSE_TILE_GROUP=${GROUP[$v]} timeout 150 python3 benchmarks/bench_pitches.py --cases $CASES \
      --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1 || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c,d,e,f | tee $G/ab-summary.txt
date -u
