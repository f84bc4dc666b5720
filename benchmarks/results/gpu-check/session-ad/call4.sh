#!/usr/bin/env bash
# Session ad, call 4, on a two-GPU machine (nvidia-h100-x2): the final code (v79) built from
# source, then with CUDA required the seven two-GPU cases of tests/test_pt2.py and the five
# GPUTRANSPOSE_HUGE tests: the twelve cases call 3's suite skips. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c4; mkdir -p $G
. scripts/gpu-build-env
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
MAX_JOBS=32 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
timeout 120 python3 -m pytest tests/test_pt2.py -q -rs -p no:cacheprovider -k second_device -v > $G/two-gpu.log 2>&1
echo "two-gpu rc $?"; grep -E "PASS|FAIL|SKIP|ERROR|passed|failed" $G/two-gpu.log
GPUTRANSPOSE_HUGE=1 timeout 200 python3 -m pytest tests/test_reliability.py -q -rs -p no:cacheprovider -k "huge or 2_pow" -v > $G/huge.log 2>&1
echo "huge rc $?"; grep -E "PASS|FAIL|SKIP|ERROR|passed|failed" $G/huge.log
date -u | tee -a $G/device.txt
gzip $G/build.log; ls $G
