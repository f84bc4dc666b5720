#!/usr/bin/env bash
# Session 2026-11-25 u, device call 3 (an H100): the gaps session t left on the final product
# code (csrc as in commit 8a917c7 but comments; HEAD of this call's tree): the five
# compute-sanitizer passes on an H100 (scripts/gpu-check, SANITIZE=1, tests and benchmark
# left out), then benchmarks/bench_pitches.py --untransposed on the odd 1- and 2-byte rows
# after its last edit (x.contiguous() timed for views only). From the repository root.
set -uo pipefail
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip SANITIZE=1 BENCH_ARGS=skip SANITIZE_TIMEOUT=330 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|fuzz|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
PYTHONPATH=$PWD timeout 150 python3 benchmarks/bench_pitches.py --untransposed --cases uint8:8191x8193 \
  uint8:8192x8192:8209 uint8:8192x8192 bfloat16:8191x8193 bfloat16:8192x8192:8209 \
  --out $G/untransposed.json > $G/untransposed.txt 2>&1
echo "untransposed rc $?"; tail -8 $G/untransposed.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c3-logs.tgz --exclude=sass.txt .)
find $G -type f ! -name device.txt ! -name gpu-check-summary.txt ! -name ptxas.txt ! -name 'untransposed.*' -delete
