#!/usr/bin/env bash
# Session 2026-11-25 t, device call 4 (an H100): scripts/gpu-check on the final product code,
# the whole test suite with CUDA required in one run (fuzz 10,300 cases; no >2^31-element
# tests, no sanitizers: both passed on an H100 with the same kernels, v46 calls 5 and 7),
# with the time limit the H100 needs (v46: 1,389 of 1,414 tests in 420 s). Carry .gtest.
set -uo pipefail
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 BENCH_ARGS=skip TEST_TIMEOUT=520 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|[0-9]+ passed|.*[0-9]+ (passed|failed)|fuzz|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c4-logs.tgz --exclude=sass.txt .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name fuzz.json -delete
