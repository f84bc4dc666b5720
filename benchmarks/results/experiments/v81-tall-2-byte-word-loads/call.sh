#!/usr/bin/env bash
# v81: tall tiles for 2-byte word loads (the H200's rows that start anywhere past L2, and
# every GPU's under L2), measured on an H100 with GPUTRANSPOSE_STAGED_2_BYTE=0, which
# makes every tree read 2-byte rows as shifted words. Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v81-tall-2-byte-word-loads/c.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v81-tall-2-byte-word-loads/d.diff
# a = the product (v79), b = the same (a control), c = tall word-loaded 2-byte tiles of
# 128 x 128 (256-byte runs both sides, against word_loaded's 64 x 256: 512 in, 128 out),
# d = 256 x 64 (v79's staged tall tile: 128 in, 512 out). 51 kernels, 0 spills, 60
# registers (nvcc 13.0, sm_90). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v81; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
export GPUTRANSPOSE_STAGED_2_BYTE=0
AB_ROUNDS=3 OUT=$G timeout 280 scripts/ab-bench pitches --reps 30 --rounds 3 --cases bfloat16:32768x4097 \
  float16:32768x4097 bfloat16:16384x16384:16401 bfloat16:16384x8193 bfloat16:16384x1025 bfloat16:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
