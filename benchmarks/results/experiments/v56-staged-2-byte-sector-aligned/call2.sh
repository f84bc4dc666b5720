#!/usr/bin/env bash
# v56 device call 2 (session w): 2-byte rows that start anywhere staged only where the output
# rows are skewed too (the working tree, staged-2-byte-skewed.diff) against HEAD (v55; .ab/base):
# three alternating rounds of bench_pitches.py over skewed 2-byte shapes of 2-512 MiB and
# aligned-store controls, then the tree's CUDA tests of 2-byte, odd, sliced and strided
# cases. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
AB_ROUNDS=3 OUT=$OUT timeout 330 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:1023x1025 bfloat16:2047x2049 bfloat16:4095x4097 bfloat16:16383x16385 bfloat16:8191x8192:8209 \
  bfloat16:1000x1000:1003 bfloat16:100x5000:5003 bfloat16:8192x8192:8209 bfloat16:1024x1024:1041 \
  bfloat16:8191x8192 bfloat16:8192x8192
echo "ab rc $?"; date -u
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "bfloat16 or float16 or int16 or odd or slice or stride" > /tmp/v56-tests.log 2>&1; echo "tests rc $?"; tail -2 /tmp/v56-tests.log
date -u
