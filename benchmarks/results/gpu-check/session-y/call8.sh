#!/usr/bin/env bash
# Session y, the final code on whichever card comes (on an H200 only v58's call 8, as call 6
# says; carry .ab): a build, then the staged-2-byte test as the review left it and the
# CUDA tests of 2-byte, odd and sliced cases. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;; esac
G=$OUT/c8; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"
timeout 300 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "staged or bfloat16 or float16 or odd or slice" > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
date -u | tee -a $G/device.txt
