#!/usr/bin/env bash
# v44 call 9 (H200): the kept rule, gated on a 6144-bit memory bus (call 8: the walk 1.0-1.4%
# slower on an H100). CUDA reports the H200's bus as 6016 bits, so the rule did not run here
# (results in first-gate-6144/); call 10 ran this script again on the code gated on >= 6016.
# a = 892df6a's code (whole-column walks), b = the working tree; two rounds of
# bench_pitches.py; the CUDA kernel tests on b's build; then the suite on b's build
# (../../../gpu-check/run-final-suite-v42.sh). Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
date -u
CASES="float64:4096x32768 complex64:4096x32768 float64:4095x32768 float32:4096x32768"
AB_ROUNDS=2 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=. timeout 240 python3 -m pytest tests/test_transpose_cuda.py -q \
  -p no:cacheprovider -x > $OUT/ab/pytest.log 2>&1
echo "pytest rc $?"; tail -2 $OUT/ab/pytest.log
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
date -u
