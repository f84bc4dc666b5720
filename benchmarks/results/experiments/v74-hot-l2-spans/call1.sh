#!/usr/bin/env bash
# v74 call 1 (session ac): build the product, then probe.py (README there). From the
# repository root, on the GPU machine.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v74; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env
# a warm machine keeps the last call's build of the same (unchanged) product code
ls torch_transpose/_C*.so >/dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
PYTHONPATH=$PWD PYTHONUNBUFFERED=1 timeout 400 python3 benchmarks/results/experiments/v74-hot-l2-spans/probe.py $G/probe.json 2>&1 | tee $G/probe.log
date -u | tee -a $G/device.txt
rm -f $G/build.log
