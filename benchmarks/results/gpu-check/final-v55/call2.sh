#!/usr/bin/env bash
# Session w, v55's product code on an H100: the five compute-sanitizer passes (scripts/gpu-check,
# SANITIZE=1, tests and benchmark left out), then the >2^31-element tests. From the repository root.
set -uo pipefail
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip SANITIZE=1 BENCH_ARGS=skip SANITIZE_TIMEOUT=330 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 200 python3 -m pytest tests/test_reliability.py \
  -k huge -v -p no:cacheprovider > $G/pytest-huge.log 2>&1; echo "huge tests rc $?"
grep -E "PASS|FAIL|ERROR|passed|failed" $G/pytest-huge.log | tail -8
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c2-logs.tgz --exclude=sass.txt --exclude=build.log .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name pytest-huge.log -delete
