#!/usr/bin/env bash
# Session ad, call 5, on an H200 only (elsewhere it stops at once): the final code's
# benchmark suite on the H200, whose committed tables are v46's kernels; session z's
# call4.sh cut to what this session's device time allows (a clean build, both parts; no
# tests). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 150 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
date -u | tee -a $G/device.txt
rm -f $G/*.png; gzip $G/build.log; ls $G
