#!/usr/bin/env bash
# Session 2026-11-25 q (H100): scripts/gpu-check on the v42 kernels without sanitizers
# (clean build, no benchmark, GPUTRANSPOSE_HUGE=0, C++ tests with .gtest carried).
S=$OUT/c; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
OUT=$S BENCH_ARGS=skip GPUTRANSPOSE_HUGE=0 TEST_TIMEOUT=450 scripts/gpu-check > $S/gpu-check.log 2>&1
echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|fuzz)" $S/gpu-check.log
grep -E "passed|failed" $S/gpu-check.log | tail -2
rm -f $S/sass.txt $S/build.log
(cd $S && tail -40 pytest.log > pytest-tail.txt; rm -f pytest.log; tar czf $OUT/checks.tgz .)
date -u
