#!/usr/bin/env bash
# v87: the product's walk unchanged, consecutive blocks (vertically adjacent tiles, which
# share the rows a skewed tile re-reads) launched as thread-block clusters of 2, one GPC.
# Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product; b = clusters of 2 for the skewed kernels (Words stores); c = b's build with
# no clusters (the early return's cost); d = clusters of 2 for every one-matrix kernel.
# Tests of tree b first; the A/B only if they pass. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v87; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env
(MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build-b.log 2>&1) || { tail -20 $G/build-b.log; exit 1; }
PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -x -p no:cacheprovider tests/test_transpose_cuda.py \
  -k "misaligned or larger_than_l2 or rows_128 or long_output or last_column or staged or tile_edges or layout_path or walk or mid_sector or evict" \
  > $G/pytest-b.log 2>&1; rc=$?; echo "pytest b rc $rc"; tail -2 $G/pytest-b.log
[ $rc = 0 ] || exit 1
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8191x8192 bool:8191x8192 bfloat16:8191x8192 uint8:8191x8193 bfloat16:8191x8193 \
  float32:8191x8193 float64:8191x8193 uint8:8192x8192 uint8:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
