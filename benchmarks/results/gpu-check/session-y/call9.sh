#!/usr/bin/env bash
# Session y, v63 (v62, and 2-byte rows past L2 staged under aligned stores too, their
# staged pieces read as two 128-bit chunks) on whichever card comes: a clean build, part 1
# of the benchmark suite (the kernels v63 changes are 2-byte ones only; part 2's are as
# they were), memcheck and racecheck on a 64 KiB L2 with staged 2-byte rows forced on,
# then the whole test suite with CUDA required (no huge tests). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c9; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
OUT=$G SMALL_L2_ONLY=1 timeout 120 bash scripts/sanitize; echo "sanitize rc $?"
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 340 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log | tee -a $G/gpu-check-summary.txt
rm -f $G/*.png $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
