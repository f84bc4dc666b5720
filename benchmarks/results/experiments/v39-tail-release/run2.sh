#!/usr/bin/env bash
# v39 call 3: a = HEAD, b = only the tiles that read the input's last 1.0x L2
# release their lines, c = the last 0.75x L2 (loads at evict_last everywhere).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8192x8192 uint8:16384x16384 uint8:32768x4096 bfloat16:8192x8192 bfloat16:16384x16384
 float32:4096x32768 float64:32768x4096 float64:8192x8192 complex128:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in a b c; do
  d=$([ $v = a ] && echo .ab/base || ([ $v = b ] && echo . || echo .ab/c))
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float32 float64 complex128 \
    --shapes 8192x8192 16384x16384 32768x4096 4096x32768 32x2048x2048 --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 26
done
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
