#!/usr/bin/env bash
# Session aa, call 5, on call 4's machine and build (run there as one command line; this file
# holds the same commands): scripts/sanitize whole and the five GPUTRANSPOSE_HUGE tests on the
# final code. From the repository root.
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so || exit 1
OUT=$G timeout 330 bash scripts/sanitize; echo "sanitize rc $?"
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 timeout 150 python3 -m pytest tests/test_reliability.py -q \
  -p no:cacheprovider -k "huge or 2_pow" > $G/pytest-huge.log 2>&1; echo "huge rc $?"; tail -1 $G/pytest-huge.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz sanitize-*.log pytest-huge.log && rm -f sanitize-*.log pytest-huge.log); ls $G
