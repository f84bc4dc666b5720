#!/usr/bin/env bash
# v35 device call 2 (walk-strides.diff in the working tree): block walks for rows NEAR an
# odd multiple of 128 KiB (call 1: float64 16384^2 at +16 B of pitch 1.093x, at +1 KiB
# 1.02x; interleaved columns no help). One build; variants by knob:
# a default; b tile-rows walked R = half + 1 apart; c R = 37; d R = 5; e columns K = half + 1;
# f tile groups of 8; g R = 3. Two rounds.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-2; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so && MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?")
CASES="complex128:8191x8193 float64:16384x16384:16386 float64:16384x16384:16392 float64:16384x16382
 float32:4096x32768:32772 complex64:16384x16384:16386 bfloat16:4096x65536:65544
 float64:16384x16384 float64:16384x16384:16512 float64:8192x8192 float64:32768x4096 uint8:8192x8192
 bfloat16:8192x8192 complex128:8192x8192 uint8:8191x8193 bfloat16:8191x8193"
declare -A ENV=([a]="" [b]="GPUTRANSPOSE_WALK_ROWS=0" [c]="GPUTRANSPOSE_WALK_ROWS=37"
  [d]="GPUTRANSPOSE_WALK_ROWS=5" [e]="GPUTRANSPOSE_WALK_COLS=0" [f]="GPUTRANSPOSE_TILE_GROUP=8"
  [g]="GPUTRANSPOSE_WALK_ROWS=3")
for round in 1 2; do
  for v in a b c d e f g; do
    (env ${ENV[$v]} PYTHONPATH=$ROOT timeout 240 python3 benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) \
      || { echo "$v $round failed"; tail -5 $G/ab/$v$round.log; }
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c,d,e,f,g | tee $G/ab-summary.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v35-call2.tgz v35-2
