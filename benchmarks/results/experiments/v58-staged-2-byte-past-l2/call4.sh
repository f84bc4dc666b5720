#!/usr/bin/env bash
# v58 device call 4 (session x): the follow-up to call 8 (through call 3) on the same warm
# H200, not carrying .ab (the trees built there stay): part 1 of the suite's 2-byte types on
# tree c (v58), then the whole test suite on the product (scripts/gpu-check, no benchmark).
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
ls .ab/c/torch_transpose/_C*.so > /dev/null 2>&1 || (cd .ab/c && python3 setup.py build_ext --inplace > $G/build-c.log 2>&1)
PYTHONPATH=$PWD/.ab/c timeout 120 python3 benchmarks/bench_transpose.py --dtypes bfloat16 float16 \
  --tag h200-part1-2byte-v58 --out-dir $G > $G/bench-2byte-v58-h200.log 2>&1; echo "2-byte part (v58) rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-2byte-v58-h200.log
OUT=$G/check BENCH_ARGS=skip GPUTRANSPOSE_HUGE=0 TEST_TIMEOUT=400 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|fuzz|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
grep -E "passed|failed" $G/gpu-check.log | tail -2 | tee -a $G/gpu-check-summary.txt
rm -rf $G/check/sass.txt $G/check/build.log
date -u | tee -a $G/device.txt
