#!/usr/bin/env bash
# v59 probe (session x), on whichever card comes: do the first wave's blocks lose time by
# running in step (v47's reading of the slices' per-call cost)? Trees: a = the product
# (.ab/base from `scripts/ab-bench prepare HEAD`), b = first-wave-stagger.diff with S = 1500 ns,
# c = the same with S = 3000 ns (.ab/c: `scripts/ab-bench variant`, S edited): the first wave's
# blocks start in P phases, phase k after k * S / P ns. Three alternating rounds of
# bench_pitches.py. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 420 scripts/ab-bench pitches --cases uint8:8192x8192:8209 bool:8192x8192:8209 \
  uint8:16384x16384:16401 uint8:4096x4096:4113 uint8:8191x8193 uint8:8191x8192 uint8:8192x8192 \
  uint8:16384x16384 bfloat16:8192x8192:8209 bfloat16:8191x8193 bfloat16:8192x8192 float32:8192x8192 \
  float32:8192x8192:8209 uint8:2048x2048
echo "ab rc $?"; date -u | tee -a $G/device.txt; rm -f $G/ab/device.txt
