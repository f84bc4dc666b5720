#!/usr/bin/env bash
# Session 2026-11-25 s, device call 7 (an H100): scripts/gpu-check on the final v46 code
# (clean build, ptxas and SASS, the whole test suite with CUDA required and the 10,300-case
# fuzz, the five sanitizer passes; GPUTRANSPOSE_HUGE=0: call 5 ran those here). Carry .gtest.
set -uo pipefail
G=$OUT/c7; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=420 SANITIZE_TIMEOUT=150 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"; grep -E "^(ptxas|SASS|[0-9]+ passed|fuzz|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
date -u | tee -a $G/device.txt
(cd $OUT && tar czf c7.tgz c7)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name fuzz.json ! -name ptxas.txt -delete
