#!/usr/bin/env bash
# Session 2026-11-25 t, device calls 11 (an H100) and 12 (an H200): gpu_time_small.py, fixed
# (call 10), on the final code: the small shapes' GPU time alone and host time per call.
# TAG names the device. From the repository root.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
timeout 240 python3 benchmarks/gpu_time_small.py --out $OUT/gpu-time-small-$TAG.json 2>&1 | tee $OUT/gpu-time-small-$TAG.log
date -u
