#!/usr/bin/env bash
# Session 2026-11-21 f, device call 12 (2x H200): after the once_per_device / l2_after_op.py
# clean-up (commit in the log name): the whole test suite with CUDA required (the two-GPU cases
# included), then benchmarks/l2_after_op.py. Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 330 python3 -m pytest tests -q -p no:cacheprovider > $OUT/pytest-2gpu-all.log 2>&1; echo "pytest rc $?"; tail -1 $OUT/pytest-2gpu-all.log
timeout 60 python3 benchmarks/l2_after_op.py --out $OUT/l2-after-op.json 2>&1 | tee $OUT/l2-after-op.log
date -u
