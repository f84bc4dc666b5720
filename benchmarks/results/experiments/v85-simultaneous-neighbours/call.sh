#!/usr/bin/env bash
# v85 probe: why v84's walk (two horizontally adjacent tiles in consecutive blocks) ran the
# staged rows 1.6-2.6x slower, and whether the first wave, whose neighbouring tile columns
# also start together, pays a share of that. Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product; b = v84's pair walk for every one-matrix kernel, aligned ones too (the
# control: aligned rows split no lines); c = the product's walk, the first wave's blocks of
# odd tile columns sleeping 2000 ns before their tile (staged kernels only); d = 4000 ns.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v85; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192:8209 bool:8192x8192:8209 uint8:8191x8193 uint8:16384x16384:16401 \
  bfloat16:8192x8192:8209 uint8:8192x8192 bfloat16:8192x8192 uint8:8192x8192:8224
echo "ab rc $?"; date -u | tee -a $G/device.txt
