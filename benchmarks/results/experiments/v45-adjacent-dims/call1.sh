#!/usr/bin/env bash
# Session 2026-11-25 r, device call 1: adjacent dims other than the last two (v45). Clean
# build; the wide-element kernel's resources and SASS; the CUDA and CPU tests with CUDA
# required; the sanitizers over scripts/sanitizer_cases.py (with the new cases); the
# benchmark's two dims shapes for every dtype. Run from the repository root.
set -uo pipefail
ROOT=$PWD
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
rm -f $G/build.log
SO=$(ls torch_transpose/_C*.so)
cuobjdump --dump-resource-usage $SO 2>/dev/null | grep -A1 wide_element > $G/wide-kernel-resources.txt
cuobjdump --dump-sass $SO 2>/dev/null | awk '/Function : .*wide_element/{f=1} f&&/Function : /&&!/wide_element/{f=0} f' > /tmp/wide.sass
echo "wide kernel SASS: $(grep -c 'LDG.E.128' /tmp/wide.sass) LDG.E.128, $(grep -c 'STG.E.128' /tmp/wide.sass) STG.E.128, $(grep -c 'LDL\|STL' /tmp/wide.sass) local" | tee -a $G/wide-kernel-resources.txt
cat $G/wide-kernel-resources.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 240 python3 -m pytest tests/test_transpose_cuda.py tests/test_transpose.py \
  -q -p no:cacheprovider > $G/pytest.log 2>&1; echo "pytest rc $?"; tail -3 $G/pytest.log
grep -E "FAILED|Error" $G/pytest.log | head -20
OUT=$G timeout 200 bash scripts/sanitize; echo "sanitize rc $?"
grep -E "wide|elements" $G/sanitize-memcheck.log | head -8
PYTHONPATH=$ROOT timeout 240 python3 benchmarks/bench_transpose.py --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 \
  --tag dims-h200 --out-dir $G > $G/bench-dims.log 2>&1; echo "bench rc $?"
tail -28 $G/bench-dims.log
date -u | tee -a $G/device.txt
