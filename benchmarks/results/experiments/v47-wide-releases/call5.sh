#!/usr/bin/env bash
# Session 2026-11-25 t, device call 5 (an H200): does the odd rows' cost shrink with size?
# bench_pitches.py on 16, 64 and 256 MiB versions of the suite's odd 1- and 2-byte shapes,
# slices and aligned squares (a tail of long blocks would cost the 64 MiB ones more).
# From the repository root.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1
PYTHONPATH=$PWD timeout 400 python3 benchmarks/bench_pitches.py --out $OUT/sizes.json --reps 60 --rounds 6 --cases \
  uint8:4096x4096 uint8:8192x8192 uint8:16384x16384 \
  uint8:4095x4097 uint8:8191x8193 uint8:16383x16385 \
  uint8:4095x4096 uint8:8191x8192 uint8:16383x16384 \
  uint8:4096x4096:4113 uint8:8192x8192:8209 uint8:16384x16384:16401 \
  bfloat16:4095x4097 bfloat16:8191x8193 bfloat16:16383x16385 \
  bfloat16:4096x4096:4113 bfloat16:8192x8192:8209 bfloat16:16384x16384:16401 2>&1 | tee $OUT/sizes.txt
date -u
