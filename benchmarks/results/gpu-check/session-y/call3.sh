#!/usr/bin/env bash
# Session y, v62 on whichever card comes, after call 1 (part 1 of the suite) and call 2 (the
# whole test suite): a build where none is left, part 2 of the benchmark suite, then
# compute-sanitizer's memcheck and racecheck with the L2 taken as 64 KiB and staged 2-byte
# rows forced on (scripts/sanitize SMALL_L2_ONLY=1). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
timeout 300 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 \
  --tag part2 --out-dir $G > $G/bench-part2.log 2>&1; echo "part2 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part2.log
OUT=$G SMALL_L2_ONLY=1 timeout 240 bash scripts/sanitize; echo "sanitize rc $?"
rm -f $G/*.png $G/build.log
date -u | tee -a $G/device.txt
