#!/usr/bin/env bash
# v58 device call 2 (session x), on whichever card comes. On an H200: call 1 (the A/B of v46,
# v55 and v58, then part 1 of the suite on the product). On any other card: the A/B again on
# another machine (replication), 2-byte cases only. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call1.sh ;; esac
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 300 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8191x8192:8209 float16:8191x8192:8209 bfloat16:5375x5377 bfloat16:4095x4097 \
  bfloat16:2047x2049 bfloat16:1000x1000:1003 bfloat16:8192x8192:8209 bfloat16:8191x8192
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
date -u | tee -a $G/device.txt
