#!/usr/bin/env bash
# Session af probe: do tall inputs with an odd column count pay for their last tile column,
# one column wide (65536x2049 = 8 x 256 + 1 columns)? The product (commit 749fb51's code)
# times each R x C input against the first C - 1 columns of the same rows (the same input
# pitch, no thin last tile column) and against C + 254 or so columns (a nearly whole last
# column), each beside its same-shape copy. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/thin; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
timeout 400 python3 benchmarks/bench_pitches.py --rounds 3 --out $G/thin.json --cases \
  uint8:65536x2049 uint8:65536x2048:2049 uint8:65536x2303 \
  uint8:32768x4097 uint8:32768x4096:4097 uint8:32768x4351 \
  bfloat16:32768x4097 bfloat16:32768x4096:4097 bfloat16:32768x4223 \
  float32:32768x4097 float32:32768x4096:4097 float32:32768x4223 2>&1 | tee $G/thin.log | grep -v "^\["
date -u | tee -a $G/device.txt
gzip $G/build.log; ls $G
