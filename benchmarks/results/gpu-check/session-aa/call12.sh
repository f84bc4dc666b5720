#!/usr/bin/env bash
# Session aa, call 12, on call 10's machine and build (run there as one command line; this file
# holds the same commands): the whole test suite with CUDA required, the ci fuzz profile (300
# cases; call 11 ran the gpu profile's 10,300 and ran out of time at 94%). From the
# repository root.
G=$OUT/c12; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so || exit 1
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci timeout 540 python3 -m pytest tests -q -rs \
  -p no:cacheprovider --maxfail=20 --durations=8 > $G/pytest.log 2>&1; echo "tests rc $?"; tail -14 $G/pytest.log
date -u | tee -a $G/device.txt
