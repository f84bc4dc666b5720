#!/usr/bin/env bash
# Session af, call 5: the final code (v88: tall inputs whose rows start anywhere walk 8
# tile-rows at a time) built clean through scripts/gpu-check, the whole test suite with
# CUDA required (GPUTRANSPOSE_HUGE=0, the CI fuzz profile), then the five huge tests (the
# 50000-row slices walk in groups now) and the fuzz test's gpu profile. From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1
GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci timeout 400 \
  python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1
echo "pytest rc $?"; tail -1 $G/pytest.log
GPUTRANSPOSE_HUGE=1 timeout 100 python3 -m pytest tests/test_reliability.py -q -rs -p no:cacheprovider \
  -k "huge or 2_pow" > $G/huge.log 2>&1; echo "huge rc $?"; tail -1 $G/huge.log
GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json timeout 100 \
  python3 -m pytest tests/test_fuzz.py -q -rs -p no:cacheprovider > $G/fuzz.log 2>&1
echo "fuzz rc $?"; tail -1 $G/fuzz.log
date -u | tee -a $G/device.txt
rm -f $G/sass.txt $G/build.log
keep='^(device.txt|gpu-check-summary.txt|pytest.log|huge.log|fuzz.log|fuzz.json)$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
