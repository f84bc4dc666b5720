#!/usr/bin/env bash
# Session 2026-11-21 g, device call 9 (2x H200): the v30 code (commit in the log name), clean
# build: the two-GPU cases and the tile-walk test, CUDA required. Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 300 python3 -m pytest tests/test_pt2.py tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "second_device or stream or compile or tile_walk" > $OUT/pytest-2gpu.log 2>&1; echo "pytest rc $?"
tail -3 $OUT/pytest-2gpu.log
date -u
