#!/usr/bin/env bash
# Session 2026-11-22 j, device call 8 (H100): the v33 code (commit e01935d: cut micro-blocks) on an H100:
# clean build, CUDA tests (transpose + graph capture), the full suite in two parts.
# Run from the repository root.
set -uo pipefail
G=/tmp/h100; mkdir -p $G
. scripts/gpu-build-env; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"; date -u
export PYTHONPATH=$PWD
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 110 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider > $G/pytest-h100.log 2>&1; echo "pytest rc $?"; tail -1 $G/pytest-h100.log
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 60 python3 -m pytest tests/test_pt2.py -q -p no:cacheprovider -k "graph" > $G/pytest-h100-graph.log 2>&1; echo "pytest graph rc $?"; tail -1 $G/pytest-h100-graph.log
timeout 170 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h100-part1 --out-dir $G > $G/bench-part1-h100.log 2>&1; echo "part1 rc $?"
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
timeout 150 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h100-part2 --out-dir $G > $G/bench-part2-h100.log 2>&1; echo "part2 rc $?"
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
grep -hE "^(large|small|vs |extra)" $G/bench-part*-h100.log
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
date -u
