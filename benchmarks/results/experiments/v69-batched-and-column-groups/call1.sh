#!/usr/bin/env bash
# Session ab, call 1, on whichever card comes: why a batch of 2048^2 matrices runs nearer
# the copy than one matrix of as many bytes (bench-h100-part1: uint8 32x2048x2048 1.014x,
# 4096x32768 1.043x, 32768x4096 1.049x; bfloat16 1.003x against 1.030x; float32 1.001x
# against 1.016-1.019x). The product as built here, one bench_pitches.py process per knob
# (knobs are read once a process), two alternating rounds:
#   a  the product's walk          b  GPUTRANSPOSE_TILE_GROUP=16
#   c  GPUTRANSPOSE_TILE_GROUP=32  d  GPUTRANSPOSE_INTERLEAVE=1
# over single matrices and batches of as many bytes, rows 1 to 64 KiB long. From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/logs/build.log 2>&1; echo "build rc $?"; date -u
CASES="uint8:8192x8192 uint8:2x8192x8192 uint8:4096x32768 uint8:32768x4096 uint8:8x4096x4096
  uint8:65536x2048 uint8:32x2048x2048 uint8:2048x65536 uint8:131072x1024 uint8:128x1024x1024
  bfloat16:8192x8192 bfloat16:32768x2048 bfloat16:16x2048x2048 float32:8192x4096 float32:8x2048x2048"
knobs() { case $1 in a) echo "" ;; b) echo GPUTRANSPOSE_TILE_GROUP=16 ;; c) echo GPUTRANSPOSE_TILE_GROUP=32 ;;
  d) echo GPUTRANSPOSE_INTERLEAVE=1 ;; esac; }
for round in 1 2; do
  for v in a b c d; do
    echo "== $v round $round $(date -u +%T)"
    env $(knobs $v) timeout 100 python3 benchmarks/bench_pitches.py --reps 30 --rounds 3 --tag "$v$round" \
      --out $G/logs/$v$round.json --cases $CASES > $G/logs/$v$round.log 2>&1 || echo "$v$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b,c,d $G/logs | tee $G/summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz logs && rm -rf logs)
