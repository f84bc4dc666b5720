#!/usr/bin/env bash
# Session z, call 2, on the machine call 1 built on (its build kept; rebuilt if missing):
# the whole test suite with CUDA required (the huge tests ran in call 1), then part 1 of
# the benchmark suite. On an H200, v58's call 8 instead (carry .ab). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;;
esac
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 380 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
rm -f $G/*.png
date -u | tee -a $G/device.txt
ls $G
