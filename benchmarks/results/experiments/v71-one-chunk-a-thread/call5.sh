#!/usr/bin/env bash
# Session ab, call 5: the product built from this tree, then proto.py (the one-chunk-a-thread
# 1-byte prototype against it, one process). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c${CALL:-5}; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
timeout 300 python3 benchmarks/results/experiments/v71-one-chunk-a-thread/proto.py > $G/proto.log 2>&1; echo "proto rc $?"
grep -E "^(uint8|NVIDIA)|registers|spill|Error|error" $G/proto.log | grep -v -i "warn" | head -30
date -u | tee -a $G/device.txt; rm -f $G/build.log
