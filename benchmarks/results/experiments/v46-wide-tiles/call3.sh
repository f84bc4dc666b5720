#!/usr/bin/env bash
# Session 2026-11-25 s, device call 3: the final v46 code (wide-element tiles of 128 units,
# more where 16 of each output row need more; evict_last input lines released by the last
# blocks past L2). scripts/gpu-check (clean build, ptxas and SASS, the whole test suite with
# CUDA required and the 10,300-case fuzz, the sanitizers; no >2^31-element tests), then one
# round of wide_sweep.py and l2_after_op.py on the dims shapes. Carry .gtest. From the repo root.
set -uo pipefail
ROOT=$PWD
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G GPUTRANSPOSE_HUGE=0 SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=330 SANITIZE_TIMEOUT=150 bash scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"; grep -E "^(ptxas|SASS|[0-9]+ passed|fuzz|memcheck|racecheck|initcheck|synccheck|FAIL)" $G/gpu-check.log
grep -A2 wide_element $G/ptxas.txt | grep -E "Used|spill"
awk '/Function : .*wide_element/{f=1} f&&/Function : /&&!/wide_element/{f=0} f' $G/sass.txt > /tmp/wide.sass
echo "wide kernels SASS: $(grep -c 'LDG.E.128' /tmp/wide.sass) LDG.E.128, $(grep -c 'STG.E.128' /tmp/wide.sass) STG.E.128, $(grep -cE 'LDL|STL' /tmp/wide.sass) local, $(grep -c 'CCTL' /tmp/wide.sass) CCTL (releases)" | tee $G/wide-kernel-sass.txt
rm -f $G/sass.txt
. scripts/gpu-build-env
export PYTHONPATH=$ROOT:$ROOT/benchmarks PYTHONUNBUFFERED=1
timeout 90 python3 benchmarks/results/experiments/v46-wide-tiles/wide_sweep.py final-r1 > $G/sweep-final.jsonl 2>&1
python3 -c "
import json,sys
for l in open('$G/sweep-final.jsonl'):
    r=json.loads(l); print(f\"{r['dtype']:11} {r['shape']:18} ours {r['ours_over_copy']:.3f}\" + (f\"  compile {r['compile_over_copy']:.3f}\" if 'compile_over_copy' in r else ''))" | tee $G/sweep-final.txt
timeout 120 python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float64 complex128 \
  --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 --out $G/l2-after-op.json 2>&1 | tee $G/l2-after-op.log
date -u | tee -a $G/device.txt
(cd $OUT && tar czf c3.tgz c3)
find $G -type f ! -name device.txt ! -name gpu-check.log ! -name sweep-final.txt ! -name l2-after-op.log ! -name wide-kernel-sass.txt -delete
