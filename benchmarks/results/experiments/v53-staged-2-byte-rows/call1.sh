#!/usr/bin/env bash
# v53 device call 1 (session w): 2-byte rows that start anywhere staged like 1-byte ones, in
# the word-shifted kernels' tiles (the working tree, staged-2-byte-rows.diff) against HEAD
# (.ab/base from `scripts/ab-bench prepare HEAD`): three alternating rounds of
# bench_pitches.py. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
AB_ROUNDS=3 OUT=$OUT timeout 560 scripts/ab-bench pitches --cases bfloat16:8191x8193 \
  bfloat16:8192x8192:8209 float16:8192x8192:8209 bfloat16:16384x16384:16401 bfloat16:8192x8193 \
  bfloat16:4096x4096:4113 bfloat16:1024x1024:1041 bfloat16:100x5000:5003 bfloat16:8191x8192 \
  bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u
