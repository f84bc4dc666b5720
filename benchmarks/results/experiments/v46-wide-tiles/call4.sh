#!/usr/bin/env bash
# Session 2026-11-25 s, device call 4: the final v46 code's benchmark suite, clean build, in
# two parts (gpu-check/run-final-suite-v42.sh, into $OUT/s), then the >2^31-element tests
# (GPUTRANSPOSE_HUGE=1: tests/test_reliability.py's huge tests, the new 5 GiB heads one
# included). Run from the repository root.
set -uo pipefail
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
grep -hE ":[01],[12] " $OUT/s/bench-part*-h200.log
GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 200 python3 -m pytest tests/test_reliability.py \
  -k huge -v -p no:cacheprovider > $OUT/pytest-huge.log 2>&1; echo "huge tests rc $?"; grep -E "PASS|FAIL|ERROR|passed|failed" $OUT/pytest-huge.log | tail -8
