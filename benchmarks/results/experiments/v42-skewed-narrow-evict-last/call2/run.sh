#!/usr/bin/env bash
# v42 call 2, on another H200: a = 923e226 (v41), b = the working tree (v42 as kept: only the
# 2-byte skewed kernel's code differs from a). Three rounds of bench_pitches.py; then the
# suite again on b's build (a second run of the final code). Run from the repository root, carry .ab.
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
date -u
CASES="bfloat16:8191x8192 float16:8191x8192 bfloat16:16383x16384 bfloat16:8193x8192
 bfloat16:8192x8192 uint8:8192x8192 float32:8191x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
S=$OUT/s; mkdir -p $S
export PYTHONUNBUFFERED=1
. scripts/gpu-build-env
PYTHONPATH=$PWD timeout 200 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
PYTHONPATH=$PWD timeout 200 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
rm -f $S/*.png
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
(cd $S && tar czf $OUT/suite2.tgz .) && rm -rf $S
date -u
