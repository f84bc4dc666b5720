#!/usr/bin/env bash
# Session 2026-11-25 r, device call 5: the final v45 code (wide-element kernel: one unit a
# thread, two for 32-byte elements; patches where input rows lie 128 KiB or more apart).
# scripts/gpu-check (clean build, ptxas and SASS, the whole test suite with CUDA required
# and the 10,300-case fuzz, the four sanitizers; no >2^31-element tests), then one round
# of wide_sweep.py on the final rules. Carry .gtest. Run from the repository root.
set -uo pipefail
ROOT=$PWD
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=330 SANITIZE_TIMEOUT=150 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"; grep -E "^(ptxas|SASS|[0-9]+ passed|fuzz|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log
grep -A2 wide_element $G/ptxas.txt | grep -E "Used|spill"
awk '/Function : .*wide_element/{f=1} f&&/Function : /&&!/wide_element/{f=0} f' $G/sass.txt > /tmp/wide.sass
echo "wide kernels SASS: $(grep -c 'LDG.E.128' /tmp/wide.sass) LDG.E.128, $(grep -c 'STG.E.128' /tmp/wide.sass) STG.E.128, $(grep -cE 'LDL|STL' /tmp/wide.sass) local" | tee $G/wide-kernel-sass.txt
rm -f $G/sass.txt
. scripts/gpu-build-env
PYTHONPATH=$ROOT:$ROOT/benchmarks PYTHONUNBUFFERED=1 timeout 90 python3 benchmarks/results/experiments/v45-adjacent-dims/wide_sweep.py final-r1 > $G/sweep-final.jsonl 2>&1
python3 -c "
import json,sys
for l in open('$G/sweep-final.jsonl'):
    r=json.loads(l); print(f\"{r['dtype']:11} {r['shape']:18} {r['ours_over_copy']:.3f}\")"
(cd $OUT && tar czf c5.tgz c5)
date -u | tee -a $G/device.txt
