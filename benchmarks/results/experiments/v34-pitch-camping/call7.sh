#!/usr/bin/env bash
# v34 device call 7: do rows 128 KiB apart cost the aligned 4- to 16-byte kernels their
# 5-6% (float64 and complex64 16384^2, complex128 8192^2)? The same shapes as views of
# matrices with slightly longer rows (still 16-byte aligned, the same kernel), two rounds.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT
G=${OUT:-$ROOT/ab-out}/v34-7; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so && MAX_JOBS=12 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"
CASES="float64:16384x16384 float64:16384x16384:16392 float64:16384x16384:16400 float64:16384x16384:16512
 complex64:16384x16384 complex64:16384x16384:16392 complex128:8192x8192 complex128:8192x8192:8196
 complex128:8192x8192:8200 float64:8192x8192 float64:8192x8192:8200 float32:4096x32768 float32:4096x32768:32800
 complex128:16384x16384 uint8:8192x8192 uint8:8192x8192:8208"
for round in 1 2; do
  timeout 250 python3 benchmarks/bench_pitches.py --cases $CASES --tag r$round --out $G/r$round.json 2>&1 | tail -20 | tee $G/r$round.log
done
date -u
