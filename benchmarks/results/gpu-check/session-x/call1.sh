#!/usr/bin/env bash
# Session x, the final code on whichever card comes. On an H200: v58's call 1 (the A/B of v46,
# v55 and v58, then part 1 of the benchmark suite on the product; carry .ab). On any other
# card: scripts/gpu-check with a clean build, the whole test suite with CUDA required (the
# >2^31-element tests in call 2), no benchmark, no sanitizers. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call1.sh ;; esac
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
git log -1 --format=%H 2>/dev/null | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G BENCH_ARGS=skip GPUTRANSPOSE_HUGE=0 TEST_TIMEOUT=480 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|fuzz|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
grep -E "passed|failed" $G/gpu-check.log | tail -2 | tee -a $G/gpu-check-summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c1-logs.tgz --exclude=sass.txt --exclude=build.log .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name ptxas.txt ! -name fuzz.json -delete
