#!/usr/bin/env bash
# Session 2026-11-21 f, device calls 5 and 7 (H200): final checks on the v29 kernels (clean build):
# scripts/gpu-check SANITIZE=1, the full suite in two parts, GPU time of small shapes and
# L2 after the op (benchmarks/l2_after_op.py), all on that build. Run from the repository root.
ROOT=$PWD
G=$OUT/g; S=$OUT/s; mkdir -p $G $S
rm -rf build torch_transpose/_C*.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=290 SANITIZE_TIMEOUT=200 scripts/gpu-check > $G/gpu-check.log 2>&1
rc=$?
grep -E "^(ptxas|SASS|fuzz|memcheck|racecheck|initcheck|synccheck)|passed|failed" $G/gpu-check.log | tail -12
echo "gpu-check rc $rc took $((SECONDS-T0)) s"; date -u
rm -f $G/sass.txt $G/build.log
(cd $G && tar czf $OUT/gpu-check.tgz .) && rm -rf $G
export PYTHONUNBUFFERED=1
PYTHONPATH=$ROOT timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
PYTHONPATH=$ROOT timeout 120 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
PYTHONPATH=$ROOT timeout 40 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-h200.json > $S/gpu-time-small-h200.log 2>&1; echo "gpu-time rc $?"
PYTHONPATH=$ROOT timeout 60 python3 benchmarks/l2_after_op.py --out $S/l2-after-op-h200.json 2>&1 | tee $S/l2-after-op-h200.log
(cd $S && tar czf $OUT/suite.tgz .) && rm -rf $S
date -u
