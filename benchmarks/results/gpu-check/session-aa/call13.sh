#!/usr/bin/env bash
# Session aa, call 13, on a two-GPU machine (nvidia-h100-x2): v68, the final code, a build from
# source, then with CUDA required the seven two-GPU cases of tests/test_pt2.py only (the rest of
# the suite ran in calls 10-12), with little device time left. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c13; mkdir -p $G
. scripts/gpu-build-env
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
MAX_JOBS=32 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
timeout 90 python3 -m pytest tests/test_pt2.py -q -rs -p no:cacheprovider -k second_device -v > $G/two-gpu.log 2>&1
echo "two-gpu rc $?"; grep -E "PASS|FAIL|SKIP|ERROR|passed|failed" $G/two-gpu.log
date -u | tee -a $G/device.txt; gzip $G/build.log
