#!/usr/bin/env bash
# v44 call 6 (H200): a = HEAD (whole-column walks), b = the working tree: 8-byte elements
# whose input rows lie an odd multiple of 256 KiB apart walk 16 tile-rows at a time
# (tile_group_rows). Three rounds a, b of bench_pitches.py; then the CUDA kernel tests on
# b's build (the new 256 KiB cases included). Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
date -u
CASES="float64:4096x32768 complex64:4096x32768 complex64:8192x32768 float64:4095x32768
 float64:4096x32000:32768 float64:2048x32768 float64:32768x4096 float32:4096x32768
 complex128:4096x32768 uint8:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=. timeout 240 python3 -m pytest tests/test_transpose_cuda.py -q \
  -p no:cacheprovider -x > $OUT/ab/pytest.log 2>&1
echo "pytest rc $?"; tail -2 $OUT/ab/pytest.log
date -u
