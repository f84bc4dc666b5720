#!/usr/bin/env bash
# Session af, call 2, on an H200 only (elsewhere it stops at once): the final code
# (v79, commit 922ce43's kernels) built clean through scripts/gpu-check (ptxas and SASS
# checks), both parts of the benchmark suite, then the test suite with CUDA required in
# the time left, to replace v46's H200 tables.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
t0=$(date +%s)
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 200 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
date -u | tee -a $G/device.txt
left=$(( 560 - ($(date +%s) - t0) ))
echo "tests: $left s left"
if [ $left -gt 60 ]; then
  GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
    timeout $left python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 2>&1 \
    | tee $G/pytest.log | tail -6
  echo "pytest rc ${PIPESTATUS[0]}"
fi
rm -f $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
keep='^(device.txt|gpu-check-summary.txt|bench-part[12].(json|png))$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
