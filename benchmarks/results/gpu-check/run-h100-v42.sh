#!/usr/bin/env bash
# Session 2026-11-25 p (H100, what the device budget left): the suite on the v42 kernels
# (run-final-suite-v42.sh builds first on a fresh machine), then the CUDA kernel tests and a
# CI-sized fuzz run with CUDA required. Run from the repository root.
OUT=$OUT SUITE_TAG=h100 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_FUZZ_PROFILE=ci PYTHONPATH=$PWD timeout 170 python3 -m pytest \
  tests/test_transpose_cuda.py tests/test_fuzz.py -q -p no:cacheprovider > $OUT/s/pytest-h100.log 2>&1
echo "pytest rc $?"; tail -2 $OUT/s/pytest-h100.log
(cd $OUT/s && tar czf $OUT/suite.tgz .)
date -u
