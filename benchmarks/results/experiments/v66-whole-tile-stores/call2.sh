#!/usr/bin/env bash
# v66 device call 2 (session aa; call 1 was gpu-check/session-aa/call1.sh, the SASS counts),
# on whichever card comes. Trees (scripts/ab-bench, carry .ab): a = the product (197fbc0),
# b = whole-tile aligned stores and unsigned tile-local index math (whole-tile-stores.diff),
# c = b with the aligned 1-byte tiles at five blocks a SM (five-blocks-on-top.diff). Three
# alternating rounds of bench_pitches.py over the kernels b changes; then b's CUDA tests
# and memcheck on a 64 KiB L2. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 420 scripts/ab-bench pitches --cases uint8:8192x8192 uint8:16384x16384 uint8:4096x4096 \
  uint8:8192x8192:8209 uint8:8191x8192 uint8:8191x8193 uint8:32768x4096 bfloat16:8192x8192 bfloat16:8192x8192:8209 \
  float32:8192x8192 float32:8192x8192:8209 float64:8192x8192:8209 complex128:4096x4096 complex128:4096x4096:4113
echo "ab rc $?"; date -u
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
. scripts/gpu-build-env
timeout 150 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider > $G/tests-b.log 2>&1
echo "tests b rc $?"; tail -1 $G/tests-b.log
OUT=$G SMALL_L2_ONLY=1 timeout 100 bash scripts/sanitize; echo "sanitize rc $?"
(cd $G && tar -czf tests-sanitize.tgz tests-*.log sanitize-*.log 2>/dev/null; rm -f tests-*.log sanitize-*.log)
date -u | tee -a $G/device.txt
