#!/usr/bin/env bash
# Session af, call 3: on an H200, call2.sh (the final code's suite and tests there);
# elsewhere, the forward-mode AD and vmap change (commit after 7fe3f0b): a clean build
# through scripts/gpu-check, then the whole test suite with CUDA required
# (GPUTRANSPOSE_HUGE=0, the CI fuzz profile). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/gpu-check/session-af/call2.sh ;; esac
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 480 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 2>&1 | tee $G/pytest.log | tail -4
echo "pytest rc ${PIPESTATUS[0]}"
grep -E "jvp|vmap|autograd_on_cuda" $G/pytest.log | head
date -u | tee -a $G/device.txt
rm -f $G/sass.txt $G/build.log
keep='^(device.txt|gpu-check-summary.txt|pytest.log)$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
