#!/usr/bin/env bash
# v42 call 1: a = HEAD (923e226, v41), b = the working tree: the tile worked out again from
# a fresh read of the block index for the releases (the compiler no longer holds it through
# the stores: the 2-byte skewed evict_last kernel 82 -> 63 registers), and the skewed
# aligned-load 2-byte kernel at evict_last; c = b with the 1-byte one at evict_last too,
# bound to four blocks a SM (32 registers, 4 bytes spilled; 40 and three blocks without).
# Three rounds a, b, c of bench_pitches.py; L2 after the op for b and c; the evict_last
# tests on c's build. Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
date -u
CASES="bfloat16:8191x8192 float16:8191x8192 bfloat16:4097x8192 bfloat16:16383x16384
 uint8:8191x8192 bool:8191x8192 uint8:8191x16384
 uint8:8192x8192 bfloat16:8192x8192 float32:8191x8192 float64:8192x8192 complex128:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
for v in b c; do
  d=$([ $v = b ] && echo . || echo .ab/c)
  echo "== L2 after the op, tree $v"
  PYTHONPATH=$d python3 benchmarks/l2_after_op.py --dtypes uint8 bfloat16 float32 \
    --shapes 8192x8192 8191x8192 --reps 30 --out "$OUT/l2/$v.json" 2>&1 | tail -n 7
done
cp -r tests .ab/c/ 2>/dev/null
(cd .ab/c && PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 300 python3 -m pytest tests/test_transpose_cuda.py -q -rs \
  -p no:cacheprovider -k "evict_last or larger_than_l2 or 128_kib" > "$OUT/l2/pytest-c.log" 2>&1
 echo "pytest (c) rc $?"; tail -2 "$OUT/l2/pytest-c.log")
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
date -u
