#!/usr/bin/env bash
# Session ac, call 3: v77 (the staged 2-byte aligned-store tile 128 x 128 elements), the
# final code: a clean build (ptxas report against session aa's, c4/ptxas.txt), both parts of
# the benchmark suite on one machine, the five GPUTRANSPOSE_HUGE tests. call4.sh runs the
# whole test suite and the sanitizer on the same machine. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
python3 benchmarks/results/gpu-check/session-z/ptxas_diff.py benchmarks/results/gpu-check/session-aa/c4/ptxas.txt \
  $G/ptxas.txt | tee -a $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 170 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 timeout 120 python3 -m pytest tests/test_reliability.py -q \
  -p no:cacheprovider -k "huge or 2_pow" > $G/pytest-huge.log 2>&1; echo "huge rc $?"; tail -1 $G/pytest-huge.log
rm -f $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
keep='^(device.txt|gpu-check-summary.txt|bench-part[12].(json|log))$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
