#!/usr/bin/env bash
# v63 device call 2 (session y), on whichever card comes. Trees (scripts/ab-bench):
# a = the product (v62), b = aligned-store 2-byte rows past L2 staged too (staged-aligned-store.diff
# alone), c = as in call 1. Call 1's trees: a = the product, b = staged 2-byte pieces
# read from shared memory as two 128-bit chunks and a word select (`wide-staged-reads.diff`),
# c = b with aligned-store 2-byte rows past L2 staged too (`staged-aligned-store.diff`).
# Three alternating rounds of bench_pitches.py, then trees b's and c's CUDA tests of
# staged, 2-byte, odd and sliced cases. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 420 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8191x8192:8209 bfloat16:8192x8192:8209 float16:8192x8192:8209 \
  bfloat16:16384x16384:16401 bfloat16:4095x4097 bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
for t in b c; do
  d=$PWD; [ $t = c ] && d=$PWD/.ab/c
  PYTHONPATH=$d timeout 60 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider \
    -k "staged or small_l2 or bfloat16 or odd or slice" > $G/tests-$t.log 2>&1; echo "tests $t rc $?"; tail -1 $G/tests-$t.log
done
date -u | tee -a $G/device.txt
