#!/usr/bin/env bash
# v51 device call 1 (session v): walk_probe.cu (line-aligned input runs, tile walks), then
# v50's last planned A/B: staged aligned-store tiles 64 x 512 (the working tree, i.e.
# v50-staged-64-row-tiles/staged-64-row-tiles.diff) against HEAD (.ab/base from
# `scripts/ab-bench prepare HEAD`), two alternating rounds of bench_pitches.py, then the
# working tree's CUDA tests of 1-byte, odd, sliced and strided cases. Carry .ab; from the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
X=benchmarks/results/experiments/v51-line-aligned-walk
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/walk_probe.cu -o /tmp/walk_probe > $OUT/walk-ptxas.txt 2>&1 || tail $OUT/walk-ptxas.txt
timeout 150 /tmp/walk_probe > $OUT/walk-probe.txt 2>&1; echo "probe rc $?"
grep -h "cudaMemcpy\|^BEST" $OUT/walk-probe.txt
date -u
AB_ROUNDS=2 OUT=$OUT timeout 300 scripts/ab-bench pitches --cases uint8:8192x8192:8209 uint8:16384x16384:16401 \
  uint8:8192x8193 uint8:4096x4096:4113 uint8:1024x1024:1041 uint8:100x5000:5003 uint8:8191x8193 uint8:8192x8192 bool:8192x8192:8209
echo "ab rc $?"; date -u
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 100 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "uint8 or bool or float8 or odd or slice or stride" 2>&1 | tail -4
echo "tests rc ${PIPESTATUS[0]}"; date -u
