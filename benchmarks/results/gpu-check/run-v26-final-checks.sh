#!/usr/bin/env bash
# Session 2026-11-21 c, device call 6 (H200): final checks on the final kernels (891494b):
# scripts/gpu-check SANITIZE=1 (clean build), then the full suite in two parts and GPU time
# of small shapes, on that build.
cd "$(dirname "$0")/.."
ROOT=$PWD
G=$OUT/g; S=$OUT/s; mkdir -p $G $S
rm -rf build torch_transpose/_C*.so
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=290 SANITIZE_TIMEOUT=200 scripts/gpu-check > $G/gpu-check.log 2>&1
rc=$?
grep -E "^(ptxas|SASS|fuzz|memcheck|racecheck|initcheck|synccheck)|passed|failed" $G/gpu-check.log | tail -12
echo "gpu-check rc $rc took $((SECONDS-T0)) s"; date -u
rm -f $G/sass.txt $G/build.log
(cd $G && tar czf $OUT/gpu-check.tgz .) && rm -rf $G
export PYTHONPATH=$ROOT PYTHONUNBUFFERED=1
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
timeout 120 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
timeout 40 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-h200.json > $S/gpu-time-small-h200.log 2>&1; echo "gpu-time rc $?"
(cd $S && tar czf $OUT/suite.tgz .) && rm -rf $S
date -u
