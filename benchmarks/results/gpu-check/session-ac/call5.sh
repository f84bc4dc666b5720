#!/usr/bin/env bash
# Session ac, call 5, on the machine of calls 3 and 4 (their build kept; rebuilt if missing):
# part 1 of the benchmark suite again. Call 3's part 1 had bfloat16 1024x1024, a small
# shape bound by the host's launches, at 1.142x the copy, where call 1 had it at 0.91x with
# the same kernel. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
timeout 170 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
rm -f $G/*.png
date -u | tee -a $G/device.txt
