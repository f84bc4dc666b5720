#!/usr/bin/env bash
# Session 2026-11-21 e, device call 6 (H200): final checks on the v28 kernels (clean build):
# scripts/gpu-check SANITIZE=1, the full suite in two parts and GPU time of small shapes on
# that build; then the output-pitch sweep (benchmarks/bench_pitches.py) on this build (b)
# and on the previous commit's (a, .ab/base), in alternating rounds.
# Run from the repository root, with .ab/base holding the previous commit (scripts/ab-bench prepare).
ROOT=$PWD
G=$OUT/g; S=$OUT/s; P=$OUT/p; mkdir -p $G $S $P
rm -rf build torch_transpose/_C*.so
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=290 SANITIZE_TIMEOUT=200 scripts/gpu-check > $G/gpu-check.log 2>&1
rc=$?
grep -E "^(ptxas|SASS|fuzz|memcheck|racecheck|initcheck|synccheck)|passed|failed" $G/gpu-check.log | tail -12
echo "gpu-check rc $rc took $((SECONDS-T0)) s"; date -u
rm -f $G/sass.txt $G/build.log
(cd $G && tar czf $OUT/gpu-check.tgz .) && rm -rf $G
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $P/build-a.log 2>&1) &
export PYTHONUNBUFFERED=1
PYTHONPATH=$ROOT timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
wait; echo "base built: $(tail -1 $P/build-a.log | cut -c1-80)"
PYTHONPATH=$ROOT timeout 120 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
PYTHONPATH=$ROOT timeout 40 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-h200.json > $S/gpu-time-small-h200.log 2>&1; echo "gpu-time rc $?"
(cd $S && tar czf $OUT/suite.tgz .) && rm -rf $S
PITCH="--dtypes uint8 bfloat16 float32 float64 complex128 --pitches 8191 8193 8197 8205 8200 8208 8224 8240 --reps 30 --rounds 3"
for round in 1 2; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 80 python3 $ROOT/benchmarks/bench_pitches.py $PITCH --out $P/pitches-$v$round.json > $P/pitches-$v$round.log 2>&1); echo "pitches $v$round rc $?"
  done
done
rm -f $P/build-a.log; (cd $P && tar czf $OUT/pitches.tgz .)
date -u
