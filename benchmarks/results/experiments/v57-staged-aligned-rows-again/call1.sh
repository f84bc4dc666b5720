#!/usr/bin/env bash
# v57 device call 1 (session w): v38's test again on v55's staging rows: every aligned
# one-matrix 1-byte tile through the staged aligned-store kernel (the working tree,
# staged-aligned-rows.diff) instead of the aligned kernel's word loads (at evict_last past
# L2), against HEAD (.ab/base from `scripts/ab-bench prepare HEAD`): three alternating
# rounds of bench_pitches.py. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
AB_ROUNDS=3 OUT=$OUT timeout 300 scripts/ab-bench pitches --cases uint8:8192x8192 uint8:16384x16384 \
  uint8:32768x4096 uint8:4096x32768 uint8:4096x4096 bool:8192x8192 float8_e4m3fn:8192x8192 \
  uint8:8192x8192:8209 uint8:8191x8193
echo "ab rc $?"; date -u
