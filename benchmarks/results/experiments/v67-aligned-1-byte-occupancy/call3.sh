#!/usr/bin/env bash
# v67 device call (session aa call 3), on whichever card comes: how the aligned 1-byte kernel's
# time follows its blocks a SM and its loads' burst (v66: whole-tile stores, a burstier store
# phase, 0.5-2.6% slower; five blocks a SM 5.7% slower). Trees (scripts/ab-bench, carry .ab):
# a = the product (197fbc0, four blocks a SM by registers), b = three blocks a SM (shared
# memory padded: three-blocks.diff), c = paced loads (each micro-block transposed to shared
# memory before the next one's loads issue), held to four blocks (paced-loads-four-blocks.diff),
# d = paced loads at three blocks (paced-loads-three-blocks.diff). Three alternating rounds of
# bench_pitches.py. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --cases uint8:8192x8192 uint8:16384x16384 uint8:4096x4096 \
  uint8:32768x4096 uint8:4096x32768 uint8:8191x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
