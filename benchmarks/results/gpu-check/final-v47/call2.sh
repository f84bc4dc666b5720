#!/usr/bin/env bash
# Session 2026-11-25 t, device call 2 (an H200): scripts/gpu-check on the final product code
# (v46's kernels; since 66cac17, which calls 3-7 of v46 verified, the host's input_past_l2
# refactor of 8a917c7 and comments): clean build, ptxas and SASS, the whole test suite with
# CUDA required (fuzz 10,300 cases; no >2^31-element tests), the five sanitizer passes.
# Carry .gtest. From the repository root.
set -uo pipefail
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
git log -1 --format=%H 2>/dev/null | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=380 SANITIZE_TIMEOUT=170 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|[0-9]+ passed|.*[0-9]+ (passed|failed)|fuzz|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c2-logs.tgz --exclude=sass.txt .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name fuzz.json ! -name ptxas.txt -delete
