#!/usr/bin/env bash
# v83: the first wave holds no two neighbouring tile columns (rows that start anywhere).
# Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product; b = the walk's first 2F tile columns taken evens first, F = the columns
# the first wave of resident blocks holds (GPUTRANSPOSE_FIRST_WAVE_SPLIT 1); c = b's build
# with F = 0 (the new parameter's cost alone); d = F twice the first wave's columns (2).
# Kernels with loads of rows that start anywhere only (staged and word-shifted).
# Then tree b's tests of those rows. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v83; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192:8209 bool:8192x8192:8209 uint8:8191x8193 uint8:16384x16384:16401 \
  bfloat16:8192x8192:8209 bfloat16:8191x8193 float32:8192x8192:8209 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -x -p no:cacheprovider tests/test_transpose_cuda.py \
  -k "misaligned or larger_than_l2 or rows_128 or long_output or last_column or staged or tile_edges or layout_path or walk" \
  > $G/pytest-b.log 2>&1; echo "pytest b rc $?"; tail -2 $G/pytest-b.log
date -u | tee -a $G/device.txt
