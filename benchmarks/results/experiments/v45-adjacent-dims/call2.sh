#!/usr/bin/env bash
# Session 2026-11-25 r, device call 2: v45 with tiles of several output rows in the
# wide-element kernel. scripts/gpu-check (clean build, ptxas and SASS, the whole test
# suite with CUDA required and the 10,300-case fuzz, the four sanitizers; no
# >2^31-element tests), then the benchmark's dims shapes for every dtype. Carry .gtest.
set -uo pipefail
ROOT=$PWD
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=330 SANITIZE_TIMEOUT=150 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"; grep -vE "^\.+|^$" $G/gpu-check.log | tail -30
grep -A2 wide_element $G/ptxas.txt | head -6
awk '/Function : .*wide_element/{f=1} f&&/Function : /&&!/wide_element/{f=0} f' $G/sass.txt > /tmp/wide.sass
echo "wide kernel SASS: $(grep -c 'LDG.E.128' /tmp/wide.sass) LDG.E.128, $(grep -c 'STG.E.128' /tmp/wide.sass) STG.E.128, $(grep -cE 'LDL|STL' /tmp/wide.sass) local"
rm -f $G/sass.txt
. scripts/gpu-build-env
PYTHONPATH=$ROOT PYTHONUNBUFFERED=1 timeout 150 python3 benchmarks/bench_transpose.py --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 \
  --tag dims-h200 --out-dir $G > $G/bench-dims.log 2>&1; echo "bench rc $?"
tail -26 $G/bench-dims.log
(cd $OUT && tar czf c2.tgz c2)
date -u | tee -a $G/device.txt
