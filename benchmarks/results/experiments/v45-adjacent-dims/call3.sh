#!/usr/bin/env bash
# Session 2026-11-25 r, device call 3: v45 with the patch walk in the wide-element kernel.
# Clean build; the wide kernel's ptxas line and SASS; the CUDA and CPU op tests with CUDA
# required; the sanitizers; then the whole benchmark suite (its dims shapes included) in
# two parts (gpu-check/run-final-suite-v42.sh, into $OUT/s). Run from the repository root.
set -uo pipefail
ROOT=$PWD
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
grep -A2 "wide_element" $G/build.log | grep -E "registers|spill" | tee $G/wide-kernel-ptxas.txt
rm -f $G/build.log
cuobjdump --dump-sass torch_transpose/_C*.so 2>/dev/null | awk '/Function : .*wide_element/{f=1} f&&/Function : /&&!/wide_element/{f=0} f' > /tmp/wide.sass
echo "wide kernel SASS: $(grep -c 'LDG.E.128' /tmp/wide.sass) LDG.E.128, $(grep -c 'STG.E.128' /tmp/wide.sass) STG.E.128, $(grep -cE 'LDL|STL' /tmp/wide.sass) local" | tee -a $G/wide-kernel-ptxas.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 200 python3 -m pytest tests/test_transpose_cuda.py tests/test_transpose.py \
  -q -p no:cacheprovider > $G/pytest.log 2>&1; echo "pytest rc $?"; tail -1 $G/pytest.log
grep -E "FAILED|Error" $G/pytest.log | head -20
OUT=$G timeout 200 bash scripts/sanitize > $G/sanitize-summary.txt 2>&1; echo "sanitize rc $?"; cat $G/sanitize-summary.txt
rm -f $G/sanitize-*.log
(cd $OUT && tar czf c3.tgz c3)
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
grep -hE "^(uint8|bool|float8|bfloat16|float16|float32|float64|complex).*:[01],[12] " $OUT/s/bench-part*-h200.log
date -u | tee -a $G/device.txt
(cd $OUT && tar czf c3.tgz c3)
