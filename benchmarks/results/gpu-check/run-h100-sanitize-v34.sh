#!/usr/bin/env bash
# Session 2026-11-22 k (H100): compute-sanitizer memcheck, racecheck, initcheck
# and synccheck over scripts/sanitizer_cases.py on an H100 (last run on one with the v31 kernels),
# clean build of the v34 code (v33's kernels). Run from the repository root.
G=$OUT/g; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip SANITIZE=1 BENCH_ARGS=skip SANITIZE_TIMEOUT=400 scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|memcheck|racecheck|initcheck|synccheck)" $G/gpu-check.log
rm -f $G/sass.txt $G/build.log
(cd $G && tar czf $OUT/h100-sanitize.tgz .) && rm -rf $G
date -u
