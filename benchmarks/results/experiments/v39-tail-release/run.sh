#!/usr/bin/env bash
# v39 call 1: a = HEAD (every evict_last tile releases its lines), b = only the
# tiles that read the input's last 1.5x L2 release (their own lines and the
# tile's 1.5x L2 before), c = no releases (v15's unreleased evict_last, an oracle).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8192x8192 uint8:16384x16384 uint8:32768x4096 bfloat16:16384x16384 float32:4096x32768
 float64:32768x4096 float64:8192x8192 complex64:16384x16384 complex128:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in a b c; do
  d=$([ $v = a ] && echo .ab/base || ([ $v = b ] && echo . || echo .ab/c))
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes uint8 float64 \
    --shapes 8192x8192 16384x16384 32768x4096 --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 7
done
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
