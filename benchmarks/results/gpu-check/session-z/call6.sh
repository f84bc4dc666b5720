#!/usr/bin/env bash
# Session z, call 6, on whichever card comes: v65 (staged skewed 2-byte tiles at 512 threads,
# docs/PERFORMANCE.md): a clean build (the kernels whose ptxas report differs from v64's,
# c1/ptxas-v64.txt: the two staged 2-byte kernels only, predicted), scripts/sanitize whole,
# the GPUTRANSPOSE_HUGE tests, part 1 of the benchmark suite (1- and 2-byte types; v65
# changes no 4- to 16-byte kernel). call7.sh runs the tests on the same machine. From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
Z=benchmarks/results/gpu-check/session-z
G=$OUT/c6; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
python3 $Z/ptxas_diff.py $Z/c1/ptxas-v64.txt $G/ptxas.txt | tee -a $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=$G timeout 300 bash scripts/sanitize; echo "sanitize rc $?"
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 timeout 150 python3 -m pytest tests/test_reliability.py \
  -q -p no:cacheprovider -k "huge or 2_pow" > $G/pytest-huge.log 2>&1; echo "huge rc $?"; tail -1 $G/pytest-huge.log
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
rm -f $G/*.png $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
# At most 8 files come back: the logs in one tarball.
keep='^(device.txt|gpu-check-summary.txt|bench-part1.(json|log))$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
