#!/usr/bin/env bash
# Session y, v62 on a second machine (whichever card comes; on an H200 only v58's call 8,
# the A/B of v46, the product, v58 and v60's 128-byte prefetch, then part 1 of the suite);
# elsewhere a clean build, then both parts of the benchmark suite, to see the spread on
# v62's rows. Carry .ab (prepared as call 8's header says). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;; esac
G=$OUT/c6; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
timeout 200 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 \
  --tag part2 --out-dir $G > $G/bench-part2.log 2>&1; echo "part2 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part2.log
rm -f $G/*.png
date -u | tee -a $G/device.txt
