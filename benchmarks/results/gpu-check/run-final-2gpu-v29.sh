#!/usr/bin/env bash
# Session 2026-11-21 f, device call 9 (2x H200): the two-GPU cases (skipped on one GPU) on
# the v29 kernels (commit 5745f73: 878bf91 and the float32-past-l2 case). Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda, 'GPUs', torch.cuda.device_count())"
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
python3 -m pytest tests/test_pt2.py tests/test_transpose_cuda.py -k "second_device or stream or compile" -v -rs -p no:cacheprovider 2>&1 | tee $OUT/pytest-2gpu-5745f73.log | tail -30
