#!/usr/bin/env bash
# Session 2026-11-25 q (H200): the final code (v42's product code, v44 dropped): clean build,
# the CUDA kernel tests with CUDA required, then the suite (run-final-suite-v42.sh).
# Run from the repository root.
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
mkdir -p $OUT/s
MAX_JOBS=16 python3 setup.py build_ext --inplace > $OUT/s/build.log 2>&1 || { tail -30 $OUT/s/build.log; exit 1; }
rm -f $OUT/s/build.log
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 200 python3 -m pytest tests/test_transpose_cuda.py -q \
  -p no:cacheprovider > $OUT/s/pytest-h200.log 2>&1
echo "pytest rc $?"; tail -1 $OUT/s/pytest-h200.log
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
