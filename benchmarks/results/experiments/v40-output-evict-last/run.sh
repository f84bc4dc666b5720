#!/usr/bin/env bash
# v40 call 1: a = HEAD (v39), b = output stores at L2 evict_last where the output is larger
# than L2, released (after a fence) by the blocks that read the input's last L2-size,
# as v39 releases the input's lines; c = b with the input's loads plain (no InputL2).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8191x8193 uint8:8192x8192:8209 uint8:8191x8192 uint8:8192x8192 bfloat16:8191x8193
 bfloat16:8192x8192:8209 bfloat16:8191x8192 float32:8191x8193 complex128:8191x8193 float64:32768x4096"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in b c; do
  d=$([ $v = b ] && echo . || echo .ab/c)
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float32 float64 complex128 \
    --shapes 8192x8192 8191x8193 "8192x8209[:,:-17]" 8191x8192 --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 21
done
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
