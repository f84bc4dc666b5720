#!/usr/bin/env bash
# Session 2026-11-22 l: the small shapes' GPU time (benchmarks/gpu_time_small.py) and L2 after
# the op (benchmarks/l2_after_op.py) on the v34 code (commit cd600ab), clean build.
# TAG names the device (h200, h100). Run from the repository root.
ROOT=$PWD
T=${TAG:-h200}
S=$OUT/a; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
PYTHONPATH=$ROOT timeout 120 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-$T.json > $S/gpu-time-small-$T.log 2>&1; echo "gpu-time rc $?"
PYTHONPATH=$ROOT timeout 150 python3 benchmarks/l2_after_op.py --out $S/l2-after-op-$T.json > $S/l2-after-op-$T.log 2>&1; echo "l2 rc $?"
tail -40 $S/*.log
date -u
