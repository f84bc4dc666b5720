#!/usr/bin/env bash
# Session z, call 4, on an H200 only (elsewhere it stops at once): the final code on the
# H200, whose committed suite is v46's kernels: a clean build, both parts of the benchmark
# suite, then the whole test suite with CUDA required (no huge tests). From the repository
# root. call5.sh follows on the same machine (../../experiments/h200-questions/).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 150 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 300 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
rm -f $G/*.png $G/sass.txt $G/build.log $G/ptxas.txt $G/build-check.log
date -u | tee -a $G/device.txt
ls $G
