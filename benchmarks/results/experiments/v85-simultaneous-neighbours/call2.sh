#!/usr/bin/env bash
# v85 probe, call 2: does the pair walk (b.diff) cost only where the two tiles' output regions
# lie a power of two apart? A tile column's output region is 256 (1-byte) or 128 (2-byte)
# output rows; at 8192 rows that is 2 MiB, and the pair writes two regions 2 MiB apart at once.
# Trees: a = the product, b = the working tree with b.diff. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v85c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 300 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192 uint8:8000x8192 uint8:6144x8192 uint8:8192x8000 uint8:8192x6144 \
  bfloat16:8192x8192 bfloat16:8000x8192 uint8:12288x12288
echo "ab rc $?"; date -u | tee -a $G/device.txt
