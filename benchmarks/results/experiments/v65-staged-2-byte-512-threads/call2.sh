#!/usr/bin/env bash
# v65 device call 2 (session z), on the machine of call 1 (on an H200 it stops): call 1's
# A/B again (the same trees a, b, c; carry .ab), its staged 2-byte rows, float16's skewed
# slice and two controls, three more alternating rounds. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) echo "an H200: its memory is over 4 TB/s, staged 2-byte rows do not run there"; exit 3 ;;
esac
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 400 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8192x8192:8209 float16:8192x8192:8209 \
  bfloat16:8191x8192:8209 float16:8191x8192:8209 bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u
date -u | tee -a $G/device.txt
