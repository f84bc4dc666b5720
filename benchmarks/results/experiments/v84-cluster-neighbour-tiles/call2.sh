#!/usr/bin/env bash
# v84, call 2 (call2/*.diff: the first build put the kernel parameters in a 160-byte stack frame): horizontally adjacent tiles (which share the lines their rows split) placed on one
# GPC, launched as a thread-block cluster, for staged rows. Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product; b = 2 tiles across in consecutive blocks, launched as clusters of 2
# (GPUTRANSPOSE_CLUSTER_COLS 2); c = the same walk without clusters (-2: placement left to
# the hardware); d = 4 tiles across, clusters of 4 (4). Then trees b's and d's tests of
# rows that start anywhere. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v84c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192:8209 bool:8192x8192:8209 uint8:8191x8193 uint8:16384x16384:16401 \
  bfloat16:8192x8192:8209 bfloat16:8191x8193 uint8:32768x4097 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
ROOT=$PWD
for t in b d; do
  dir=$ROOT; [ $t = d ] && dir=$ROOT/.ab/d
  (cd $dir && PYTHONPATH=$dir timeout 100 python3 -m pytest -q -x -p no:cacheprovider $ROOT/tests/test_transpose_cuda.py \
    -k "misaligned or larger_than_l2 or rows_128 or long_output or last_column or staged or tile_edges or layout_path or walk" \
    > $G/pytest-$t.log 2>&1; echo "pytest $t rc $?"; tail -2 $G/pytest-$t.log)
done
date -u | tee -a $G/device.txt
