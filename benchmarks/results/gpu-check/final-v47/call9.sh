#!/usr/bin/env bash
# Session 2026-11-25 t, device call 9 (an H100): the final product code's benchmark suite,
# clean build (run-final-suite-v42.sh, SUITE_TAG=h100, into $OUT/s), then every >2^31-element
# test (GPUTRANSPOSE_HUGE=1). From the repository root.
set -uo pipefail
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
OUT=$OUT SUITE_TAG=h100 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
grep -hE ":[01],[12] " $OUT/s/bench-part*-h100.log
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD GPUTRANSPOSE_HUGE=1 timeout 200 python3 -m pytest tests/test_reliability.py \
  -k "huge or pow" -v -p no:cacheprovider > $OUT/s/pytest-huge-h100.log 2>&1; echo "huge tests rc $?"
grep -E "PASS|FAIL|ERROR|passed|failed" $OUT/s/pytest-huge-h100.log | tail -6
(cd $OUT/s && tar czf $OUT/suite.tgz .) && rm -f $OUT/s/*.png $OUT/s/*.log  # at most 8 files come back
date -u
