#!/usr/bin/env bash
# Session 2026-11-25 t, device call 3 (an H200): the benchmark suite on the final product code,
# clean build, in two parts (gpu-check/run-final-suite-v42.sh, into $OUT/s), the >2^31-element
# tests (GPUTRANSPOSE_HUGE=1, tests whose names hold "huge"), and l2_after_op.py on the dims
# shapes. From the repository root.
set -uo pipefail
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
grep -hE ":[01],[12] " $OUT/s/bench-part*-h200.log
GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests/test_reliability.py \
  -k huge -v -p no:cacheprovider > $OUT/pytest-huge.log 2>&1; echo "huge tests rc $?"; grep -E "PASS|FAIL|ERROR|passed|failed" $OUT/pytest-huge.log | tail -8
PYTHONPATH=$PWD:$PWD/benchmarks timeout 90 python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float64 complex128 \
  --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 --out $OUT/l2-after-op.json 2>&1 | tee $OUT/l2-after-op.log
date -u
