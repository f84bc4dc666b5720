#!/usr/bin/env bash
# Session w, v55's product code (sector-aligned staging) on an H100: scripts/gpu-check with a
# clean build, the whole test suite with CUDA required (the >2^31-element tests in call 2), no
# benchmark, no sanitizers. From the repository root.
set -uo pipefail
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G BENCH_ARGS=skip GPUTRANSPOSE_HUGE=0 TEST_TIMEOUT=500 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|fuzz|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
grep -E "passed|failed" $G/gpu-check.log | tail -2 | tee -a $G/gpu-check-summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c1-logs.tgz --exclude=sass.txt --exclude=build.log .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name ptxas.txt ! -name fuzz.json -delete
