#!/usr/bin/env bash
# v44 call 7 (H200; call 8 ran it on an H100): a = HEAD (whole-column walks),
# b = the working tree: the 16-tile-row walk for aligned 8-byte tiles only (call 6 had it
# for every 8-byte tile: float64 4095x32768, skewed, 2.7% slower). Three rounds a, b of
# bench_pitches.py; then the CUDA kernel tests on b's build. Run from the repository root,
# carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
date -u
CASES="float64:4096x32768 complex64:4096x32768 complex64:8192x32768 float64:4096x32000:32768
 float64:4095x32768 float64:32768x4096 float32:4096x32768"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=. timeout 240 python3 -m pytest tests/test_transpose_cuda.py -q \
  -p no:cacheprovider -x > $OUT/ab/pytest.log 2>&1
echo "pytest rc $?"; tail -2 $OUT/ab/pytest.log
date -u
