#!/usr/bin/env bash
# Device call 3: scripts/gpu-check SANITIZE=1 on the final tree (clean build; its compiler
# choice from scripts/gpu-build-env, run on the GPU machine for the first time).
cd "$(dirname "$0")/.."
G=$OUT/g; mkdir -p $G
rm -rf build torch_transpose/_C*.so
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=300 SANITIZE_TIMEOUT=240 scripts/gpu-check > $G/gpu-check.log 2>&1
rc=$?
tail -45 $G/gpu-check.log
echo "gpu-check rc $rc took $((SECONDS-T0)) s"; date -u
rm -f $G/sass.txt $G/build.log
cd $G && tar czf $OUT/gpu-check.tgz . && cd - >/dev/null && rm -rf $G
