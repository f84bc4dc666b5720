#!/usr/bin/env bash
# v78 (session ac): after v77 (the staged 2-byte slices' tile at 256-byte runs on both sides,
# not 512 in and 128 out: 0.3-7.7% faster), the output runs of two more aligned-store tiles
# that read rows starting anywhere. Trees (scripts/ab-bench, carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v78-output-runs/c.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v78-output-runs/d.diff
# a = HEAD (v75), b = the working tree (v77: TileShape<2>::staged_loaded), c = b with the
# staged 1-byte aligned-store tile (the uint8 slices) 256 x 128 rather than 128 x 256
# (256-byte output runs, 128-byte input runs; 72 KiB, three blocks a SM, 32 registers),
# d = b with the word-shifted 4-byte aligned-store tile (float32 slices) 128 x 64 elements
# rather than 64 x 128 (512-byte output runs, 256-byte input runs; 48 registers).
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v78; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8192x8192:8209 \
  bool:8192x8192:8209 uint8:16384x16384:16401 uint8:8192x8193 uint8:32768x4097 float32:8192x8192:8209 \
  float32:16384x16384:16401 float32:8192x8193 float32:32768x4097 bfloat16:8192x8192:8209 \
  bfloat16:32768x4097 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
