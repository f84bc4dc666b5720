#!/usr/bin/env bash
# Session 2026-11-21 g, device call 7 (H100): the v30 kernels (commit 74aeb64) on an H100:
# build this tree and v29's (.ab/base, scripts/ab-bench prepare 52632a6), CUDA tests
# (transpose + graph capture), an A/B of v29 against v30 on the 32768-row shapes, the full suite
# in two parts, and L2 after the op. Run from the repository root.
set -uo pipefail
G=/tmp/h100; mkdir -p $G/ab
. scripts/gpu-build-env; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
(cd .ab/base && python3 setup.py build_ext --inplace > $G/build-a.log 2>&1) &
python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"; wait; date -u
export PYTHONPATH=$PWD
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 110 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider > $G/pytest-h100.log 2>&1; echo "pytest rc $?"; tail -1 $G/pytest-h100.log
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 60 python3 -m pytest tests/test_pt2.py -q -p no:cacheprovider -k "graph" > $G/pytest-h100-graph.log 2>&1; echo "pytest graph rc $?"; tail -1 $G/pytest-h100-graph.log
for round in 1 2; do for v in a b; do
  dir=$PWD; [ $v = a ] && dir=$PWD/.ab/base
  (cd $dir && PYTHONPATH=$dir timeout 60 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 \
     --dtypes uint8 float32 float64 complex64 complex128 --shapes 32768x4096 8192x8192 65536x64 \
     --out-dir $G/ab --tag ab-$v$round > /dev/null 2>&1); echo "ab $v$round rc $?"
done; done
rm -f $G/ab/*.png
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
timeout 170 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h100-part1 --out-dir $G > $G/bench-part1-h100.log 2>&1; echo "part1 rc $?"
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
timeout 150 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h100-part2 --out-dir $G > $G/bench-part2-h100.log 2>&1; echo "part2 rc $?"
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
grep -hE "^(large|small|vs |extra)" $G/bench-part*-h100.log
timeout 60 python3 benchmarks/l2_after_op.py --out $G/l2-after-op-h100.json > $G/l2-after-op-h100.log 2>&1; echo "l2 rc $?"
tar -czf $OUT/h100.tgz -C $G --exclude 'build*.log' .
date -u
