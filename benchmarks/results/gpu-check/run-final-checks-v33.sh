#!/usr/bin/env bash
# Session 2026-11-22 j, device call 6 (H200): final checks on the v33 code (commit e01935d) (clean build):
# scripts/gpu-check SANITIZE=1 (tests, fuzz, sanitizers, ptxas, SASS). The suite runs in the next call (run-final-suite-v33.sh).
# Run from the repository root.
ROOT=$PWD
G=$OUT/g; mkdir -p $G
rm -rf build torch_transpose/_C*.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=290 SANITIZE_TIMEOUT=200 scripts/gpu-check > $G/gpu-check.log 2>&1
rc=$?
grep -E "^(ptxas|SASS|fuzz|memcheck|racecheck|initcheck|synccheck)|passed|failed" $G/gpu-check.log | tail -12
echo "gpu-check rc $rc took $((SECONDS-T0)) s"; date -u
rm -f $G/sass.txt $G/build.log
(cd $G && tar czf $OUT/gpu-check.tgz .) && rm -rf $G
date -u
