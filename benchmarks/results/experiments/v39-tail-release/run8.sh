#!/usr/bin/env bash
# v39 call 10: the suite's final run had float64 and complex64 4096x32768 at +2.2% and +0.9%
# against v38's run (another machine). A/B: a = 07b5bbf (v38), b = HEAD (v39). Then L2
# after the op again on the rows whose reading the final run disturbed.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="float64:4096x32768 complex64:4096x32768 float32:4096x32768 uint8:4096x32768 float64:32768x4096
 complex128:4096x32768 float64:16384x16384"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
PYTHONPATH=. python3 benchmarks/l2_after_op.py --dtypes float32 uint8 \
  --shapes 8192x8192 8191x8193 8191x8192 16384x16384 --reps 30 2>&1 | tail -n 9
