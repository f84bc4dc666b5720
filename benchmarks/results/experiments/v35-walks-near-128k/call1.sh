#!/usr/bin/env bash
# v35 device call 1: does v34's interleaved walk help rows NEAR an odd multiple of
# 128 KiB (complex128 8191x8193: input rows 128 KiB + 16 B apart, 1.061x in v34's suite),
# and the 1- and 2-byte odd rows? One build (HEAD); a = default rule, b =
# GPUTRANSPOSE_INTERLEAVE=1 (every walk interleaved). Two rounds a, b.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-1; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print(torch.__version__)" | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so && MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?")
NEAR="complex128:8191x8193 complex128:8192x8192:8193 complex128:8192x8191 complex128:8191x8191
 float64:16384x16384:16386 float64:16384x16384:16388 float64:16384x16384:16392 float64:16384x16384:16400
 float64:16384x16384:16416 float64:16384x16384:16448 float64:16384x16382 float64:16384x16376
 float32:4096x32768:32772 float32:4096x32764 complex64:16384x16384:16386"
ODD="uint8:8191x8193 uint8:8191x8192 uint8:8192x8192:8209 uint8:8192x8192 bfloat16:8191x8193
 bfloat16:8192x8192:8209 bfloat16:8191x8192 float16:8191x8193 float32:8191x8193 float64:8191x8193"
for round in 1 2; do
  for v in a b; do
    env=""; [ $v = b ] && env="GPUTRANSPOSE_INTERLEAVE=1"
    for set in near odd; do
      cases=$NEAR; [ $set = odd ] && cases=$ODD
      (env $env PYTHONPATH=$ROOT timeout 240 python3 benchmarks/bench_pitches.py \
         --cases $cases --tag $v$round --out $G/ab/$set-$v$round.json > $G/ab/$set-$v$round.log 2>&1) \
        || echo "$set $v $round failed"
    done
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b | tee $G/ab-summary.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v35-call1.tgz v35-1
