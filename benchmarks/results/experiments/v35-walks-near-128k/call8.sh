#!/usr/bin/env bash
# v35 device call 8 (evict-last-threshold.diff in the working tree): where the aligned
# kernels' evict_last loads (released after use) start paying, for inputs near the L2's
# size. One build; a = the default (inputs larger than L2), b = larger than 2x L2 (64 MiB
# inputs back to plain loads), c = larger than half of L2. Three rounds.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-8; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so && MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?")
CASES="uint8:8192x8192 bool:8192x8192 float8_e4m3fn:8192x8192 float32:4096x4096 bfloat16:4096x8192
 uint8:4096x8192 float32:2048x4096 uint8:16384x16384"
declare -A ENV=([a]="" [b]="GPUTRANSPOSE_EVICT_LAST_PERCENT=200" [c]="GPUTRANSPOSE_EVICT_LAST_PERCENT=50")
for round in 1 2 3; do
  for v in a b c; do
    (env ${ENV[$v]} PYTHONPATH=$ROOT timeout 150 python3 benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) \
      || { echo "$v $round failed"; tail -3 $G/ab/$v$round.log; }
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c | tee $G/ab-summary.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v35-call8.tgz v35-8
