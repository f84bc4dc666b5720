#!/usr/bin/env bash
# v39 call 7: where the release window stops leaving L2 clean. a = HEAD (the last 1.0x L2's
# blocks release), b = the last 0.5x L2's, c = the last 0.25x L2's.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8192x8192 bool:8192x8192 float8_e4m3fn:8192x8192 uint8:32768x4096 bfloat16:8192x8192
 float32:4096x4096 float32:8192x8192 float64:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in a b c; do
  d=$([ $v = a ] && echo .ab/base || ([ $v = b ] && echo . || echo .ab/c))
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes float32 uint8 bfloat16 float64 \
    --shapes 8192x8192 16384x16384 32768x4096 --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 13
done
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
