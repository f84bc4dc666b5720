#!/usr/bin/env bash
# Device call 27: gpu-check on v18 (build, tests, sanitizers, fuzz, benchmark part 1).
set -uo pipefail
G=/tmp/gc; mkdir -p $G
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
OUT=$G SANITIZE=1 BENCH_ARGS="--dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1" scripts/gpu-check > $G/gpu-check.log 2>&1
echo "gpu-check rc $?"
tar -czf $OUT/gc.tgz -C $G --exclude build.log --exclude sass.txt .
grep -E "passed|failed|error|ptxas:|SASS:|fuzz|ERROR SUMMARY|cases," $G/gpu-check.log | head -20
grep -hE "^(large|small|vs |extra)" $G/bench.log
