#!/usr/bin/env bash
# Session z, call 8, on whichever card comes: the benchmark suite whole (both parts, one
# machine) on v65, the final code: a clean build, then part 1 (1- and 2-byte types) and
# part 2 (4- to 16-byte types). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c8; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 150 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
rm -f $G/*.png
date -u | tee -a $G/device.txt
