#!/usr/bin/env bash
# v76 (session ac): after v75 (256-byte input runs for the skewed 1-byte tiles with aligned
# loads past L2: 0.9-1.7% faster), the same for the staged skewed 1-byte tiles (8191 x 8193
# and the like: rows and output rows that start anywhere): 128 x 256 rather than 256 x 128
# (68 KiB of shared memory rather than 72, three blocks a SM either way; 32 registers;
# re-read rows 12.5%, not 6.25%). Trees (scripts/ab-bench, carry .ab), prepared here with:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && rm -rf .ab/d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v76-wide-staged-skewed-1-byte/c-128x256.diff
# a = the product (HEAD, v75), b = the same code (a control), c = the 128 x 256 staged
# skewed tile at every size. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v76; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8191x8193 \
  bool:8191x8193 float8_e4m3fn:8191x8193 uint8:16383x16385 uint8:8193x8191 uint8:8191x8193:8209 \
  uint8:2x8191x8193 uint8:4095x4097 uint8:2047x2049 uint8:1023x1025 uint8:8191x8192 uint8:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
