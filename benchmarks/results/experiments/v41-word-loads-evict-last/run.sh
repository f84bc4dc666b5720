#!/usr/bin/env bash
# v41 call 1: a = HEAD (4af16dd), b = the working tree: 8-byte elements' word-shifted
# loads at L2 evict_last, released by the last tiles (as the aligned loads since v39),
# where the input is larger than L2. Three rounds a, b of bench_pitches.py; then L2 after
# the op for b, and the evict_last tests on b's build. Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
date -u
CASES="float64:8191x8193 complex64:8191x8193 float64:8192x8192:8209 complex64:8192x8192:8209
 float64:4095x4097 float64:8191x8192 float64:4096x32768 complex128:8191x8193 float32:8191x8193"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
mkdir -p "$OUT/l2"
PYTHONPATH=. python3 benchmarks/l2_after_op.py --dtypes float64 complex64 \
  --shapes 8192x8192 8191x8193 "8192x8209[:,:-17]" --reps 30 --out "$OUT/l2/b.json" 2>&1 | tail -n 8
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 300 python3 -m pytest tests/test_transpose_cuda.py -q -rs \
  -p no:cacheprovider -k "evict_last or larger_than_l2 or 128_kib" > "$OUT/l2/pytest.log" 2>&1
echo "pytest rc $?"; tail -3 "$OUT/l2/pytest.log"
tar -czf "$OUT/l2.tgz" -C "$OUT" l2 && rm -rf "$OUT/l2"
date -u
