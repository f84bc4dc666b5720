#!/usr/bin/env bash
# Session 2026-11-21 h, device call 3 (H200): final checks on the v31 code (host-path trims; kernels as v30) (clean build):
# scripts/gpu-check SANITIZE=1 (tests, fuzz, sanitizers, ptxas, SASS), GPU time of small
# shapes and L2 after the op. The suite runs in the next call (run-final-suite-v31.sh).
# Run from the repository root.
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
PYTHONPATH=$ROOT timeout 60 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-h200.json > $S/gpu-time-small-h200.log 2>&1; echo "gpu-time rc $?"
grep -E "65536x64" $S/gpu-time-small-h200.log
PYTHONPATH=$ROOT timeout 90 python3 benchmarks/l2_after_op.py --out $S/l2-after-op-h200.json 2>&1 | tee $S/l2-after-op-h200.log | tail -5
(cd $S && tar czf $OUT/small.tgz .) && rm -rf $S
date -u
