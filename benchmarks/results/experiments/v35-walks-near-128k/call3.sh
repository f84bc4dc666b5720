#!/usr/bin/env bash
# v35 device call 3: peers on rows near 128 KiB apart (peers_near_128k.py), HEAD build.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(rm -rf build torch_transpose/_C*.so && MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?")
PYTHONPATH=$ROOT python3 benchmarks/results/experiments/v35-walks-near-128k/peers_near_128k.py 2>&1 | tee $G/peers.txt
date -u | tee -a $G/device.txt
