#!/usr/bin/env bash
# v56 device call 1 (session w): v53's 2-byte staging again, on v55's sector-aligned staging
# rows (the working tree, staged-2-byte-rows.diff) against HEAD (v55; .ab/base from
# `scripts/ab-bench prepare HEAD`): three alternating rounds of bench_pitches.py, then the
# tree's CUDA tests of 2-byte, odd, sliced and strided cases. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
AB_ROUNDS=3 OUT=$OUT timeout 300 scripts/ab-bench pitches --cases bfloat16:8191x8193 \
  bfloat16:8192x8192:8209 float16:8192x8192:8209 bfloat16:16384x16384:16401 bfloat16:8192x8193 \
  bfloat16:4096x4096:4113 bfloat16:1024x1024:1041 bfloat16:100x5000:5003 bfloat16:8191x8192 \
  bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "bfloat16 or float16 or int16 or odd or slice or stride" > /tmp/v56-tests.log 2>&1; echo "tests rc $?"; tail -2 /tmp/v56-tests.log
date -u
