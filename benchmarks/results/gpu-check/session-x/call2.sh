#!/usr/bin/env bash
# Session x, the final commit's code on whichever card comes: a clean build, then both parts
# of the benchmark suite (the README's main job, by parts), to verify the final build itself
# runs the suite; the committed bench-h100-part* are session w's runs of SASS-identical code.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"
PYTHONPATH=$PWD timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
PYTHONPATH=$PWD timeout 300 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 \
  --tag part2 --out-dir $G > $G/bench-part2.log 2>&1; echo "part2 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part2.log
rm -f $G/*.png
date -u | tee -a $G/device.txt
