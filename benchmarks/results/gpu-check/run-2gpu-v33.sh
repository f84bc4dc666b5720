#!/usr/bin/env bash
# Session 2026-11-22 j, device call 10 (2x H200): the v33 code (commit e01935d's kernels),
# clean build: tests/test_pt2.py (the two-GPU cases, which a one-GPU machine skips, among
# them) and tests/test_transpose_cuda.py, CUDA required. Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 400 python3 -m pytest tests/test_pt2.py tests/test_transpose_cuda.py -q -rs -p no:cacheprovider \
  --maxfail=20 > $OUT/pytest-2gpu-v33.log 2>&1; echo "pytest rc $?"
tail -4 $OUT/pytest-2gpu-v33.log
date -u
