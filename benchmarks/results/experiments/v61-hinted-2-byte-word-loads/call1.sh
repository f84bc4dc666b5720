#!/usr/bin/env bash
# v61 device call 1 (session x), on whichever card comes: the 256-byte L2 prefetch hint on
# the 2-byte word-shifted loads (v18 left it off them: 0.7-3.6% slower on an H200). v58 call 6
# found v58's H100 gain at 128 MiB to be its staging copies' hint; is it the hint's alone?
# Trees: a = the product (.ab/base from `scripts/ab-bench prepare HEAD`), b = the working tree
# with hinted-word-loads.diff, c = v58 (`scripts/ab-bench variant` before the edit, plus
# ../v58-staged-2-byte-past-l2/staged-2-byte-past-l2.diff). Three alternating rounds of
# bench_pitches.py, then tree b's CUDA tests of 2-byte, odd, sliced and strided cases.
# Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8191x8192:8209 bfloat16:8192x8192:8209 float16:8192x8192:8209 \
  bfloat16:16384x16384:16401 bfloat16:4095x4097 bfloat16:2047x2049 bfloat16:1000x1000:1003 \
  bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "bfloat16 or float16 or int16 or odd or slice or stride" > $G/tests-b.log 2>&1; echo "tests (tree b) rc $?"
tail -1 $G/tests-b.log
date -u | tee -a $G/device.txt
