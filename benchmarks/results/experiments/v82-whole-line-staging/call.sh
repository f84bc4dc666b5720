#!/usr/bin/env bash
# v82: staged rows' copies as whole 128-byte lines. Trees (scripts/ab-bench; carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product (v79); b = each staged row's covering lines bulk-prefetched to L2 first
# (GPUTRANSPOSE_STAGE_LINES 1); c = COVER: every chunk of the covering lines copied, those
# outside the window into the thread's scratch in the output tile (2); d = the tail line
# whole, the head as now (3). Then tree c's and d's staged-row tests. From the repo root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v82; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 330 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192:8209 bool:8192x8192:8209 uint8:8191x8193 uint8:16384x16384:16401 \
  bfloat16:8192x8192:8209 bfloat16:8191x8193 uint8:32768x4097 uint8:8192x8192 float32:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
ROOT=$PWD
for t in c d; do
  (cd .ab/$t && PYTHONPATH=$PWD timeout 100 python3 -m pytest -q -x -p no:cacheprovider \
    $ROOT/tests/test_transpose_cuda.py -k "misaligned or larger_than_l2 or rows_128 or long_output or last_column or staged or tile_edges or layout_path" \
    > $G/pytest-$t.log 2>&1; echo "pytest $t rc $?"; tail -2 $G/pytest-$t.log)
done
date -u | tee -a $G/device.txt
