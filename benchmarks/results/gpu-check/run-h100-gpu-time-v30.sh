#!/usr/bin/env bash
# Session 2026-11-21 g, device call 11 (H100): GPU time of the small shapes on the v30 code
# (benchmarks/gpu_time_small.py), clean build. Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 120 python3 benchmarks/gpu_time_small.py --out $OUT/gpu-time-small-h100.json > $OUT/gpu-time-small-h100.log 2>&1; echo "gpu-time rc $?"
grep -E "65536x64|1024x1024" $OUT/gpu-time-small-h100.log
date -u
