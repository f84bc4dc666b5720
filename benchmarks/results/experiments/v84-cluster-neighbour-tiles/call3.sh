#!/usr/bin/env bash
# v84, call 3 (call3/*.diff): call 2's build put blocks past the last tile column's group
# (8191x8193's 65 columns in pairs) on matrix 1's rows: wrong results, caught. Fixed here
# (b = 0 on that path). Tests of tree b first; the A/B only if they pass.
# a = the product; b = 2 tiles across, clusters of 2; c = the same walk, no clusters;
# d = 4 across, clusters of 4 (staged kernels, one matrix). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v84c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env
(MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build-b.log 2>&1) || { tail -20 $G/build-b.log; exit 1; }
PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -x -p no:cacheprovider tests/test_transpose_cuda.py \
  -k "misaligned or larger_than_l2 or rows_128 or long_output or last_column or staged or tile_edges or layout_path or walk" \
  > $G/pytest-b.log 2>&1; rc=$?; echo "pytest b rc $rc"; tail -2 $G/pytest-b.log
[ $rc = 0 ] || exit 1
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192:8209 bool:8192x8192:8209 uint8:8191x8193 uint8:16384x16384:16401 \
  bfloat16:8192x8192:8209 bfloat16:8191x8193 uint8:32768x4097 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
