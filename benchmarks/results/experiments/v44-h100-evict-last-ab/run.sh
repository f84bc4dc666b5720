#!/usr/bin/env bash
# v44 call 1, on an H100: a = 4af16dd (v39's code), b = the working tree (v42), c = 923e226
# (v41). c/a measures v41 (8-byte word loads at evict_last), b/c v42 (the skewed aligned-load
# 2-byte kernel at evict_last), both measured only on H200s until now. Three rounds a, b, c of
# bench_pitches.py; then L2 after the op on b's build. Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
date -u
CASES="bfloat16:8191x8192 float16:8191x8192 bfloat16:16383x16384 bfloat16:8193x8192
 float64:8191x8193 complex64:8191x8193 float64:8192x8192:8209
 uint8:8192x8192 bfloat16:8192x8192 float32:8191x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
PYTHONPATH=. python3 benchmarks/l2_after_op.py --dtypes bfloat16 float64 \
  --shapes 8191x8192 8191x8193 --reps 30 --out "$OUT/l2/b.json" 2>&1 | tail -n 6
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
date -u
