#!/usr/bin/env bash
# Session 2026-11-22 l (2x H200): the v34 code (commit cd600ab, v34 kernels), clean build: the whole test
# suite with CUDA required (the two-GPU cases among them), the C++ tests too (needs .gtest
# carried). Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
[ -d .gtest ] && export GPUTRANSPOSE_GTEST_SOURCE_DIR=$PWD/.gtest
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 480 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $OUT/pytest-2gpu-all-v35.log 2>&1; echo "pytest rc $?"
tail -6 $OUT/pytest-2gpu-all-v35.log
date -u
