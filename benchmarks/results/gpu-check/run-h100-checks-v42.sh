#!/usr/bin/env bash
# Session 2026-11-25 q (H100): scripts/gpu-check with SANITIZE=1 on the v42 kernels, unchanged (evict_last
# for 8-byte word loads and the 2-byte skewed kernel), clean build, no benchmark, C++ tests
# (carry .gtest). Run from the repository root.
S=$OUT/c; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
OUT=$S SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=330 SANITIZE_TIMEOUT=200 scripts/gpu-check > $S/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|memcheck|racecheck|initcheck|synccheck|fuzz)" $S/gpu-check.log
grep -E "passed|failed" $S/gpu-check.log | tail -2
rm -f $S/sass.txt $S/build.log
(cd $S && tail -40 pytest.log > pytest-tail.txt; rm -f pytest.log; tar czf $OUT/checks.tgz .)
date -u
