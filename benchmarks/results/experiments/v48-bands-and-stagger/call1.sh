#!/usr/bin/env bash
# v48 device call 1: the cluster-band access-pattern oracle (band_pattern.cu), two rounds,
# and the real kernels on the same shapes (bench_pitches.py, HEAD build) on the same GPU.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
X=benchmarks/results/experiments/v48-bands-and-stagger
G=${OUT:-$ROOT/ab-out}/v48-1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/band_pattern.cu -o /tmp/bp > $G/ptxas.txt 2>&1 || { tail $G/ptxas.txt; exit 1; }
(rm -rf build torch_transpose/_C*.so && python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?") &
for round in 1 2; do timeout 200 /tmp/bp > $G/pattern-$round.txt 2>&1; echo "pattern round $round rc $?"; done
wait
PYTHONPATH=$ROOT timeout 240 python3 benchmarks/bench_pitches.py --cases uint8:8192x8192 uint8:8191x8193 \
  uint8:8191x8192 uint8:8192x8192:8209 --out $G/real.json > $G/real.log 2>&1
echo "real rc $?"
cat $G/real.log | tail -15
cat $G/pattern-1.txt
grep -h "x copy" $G/pattern-2.txt
date -u | tee -a $G/device.txt
