#!/usr/bin/env bash
# v39 call 5: a = ebcb126 (v39: evict_last released by the last tiles, aligned loads only),
# b = the same for word-shifted unaligned loads (2-, 4- and 8-byte elements), c = b with
# the staged 1-byte rows' cp.async copies at evict_last too. Then L2 after the op.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8191x8193 uint8:8192x8192:8209 bfloat16:8191x8193 bfloat16:8192x8192:8209
 float32:8191x8193 float32:8192x8192:8209 float64:8191x8193 complex64:8191x8193"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in b c; do
  d=$([ $v = b ] && echo . || echo .ab/c)
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float32 float64 \
    --shapes 8192x8192 8191x8193 "8192x8209[:,:-17]" --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 13
done
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
