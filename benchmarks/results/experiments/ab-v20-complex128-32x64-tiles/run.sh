#!/usr/bin/env bash
# Session 2026-11-21 c, device call 1 (H200): a = HEAD (final kernels) vs b = 16-byte tiles
# 32x64 (1 KiB input runs, 512-byte output runs) on complex128; then the full suite on HEAD
# (built in .ab/base by ab-bench) and GPU time of small shapes.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
mkdir -p $OUT/ab $OUT/suite
OUT=$OUT/ab AB_ROUNDS=3 timeout 330 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes complex128 --shapes 8192x8192 16384x16384 4096x32768 32768x4096 8191x8193 8191x8192 \
  32x2048x2048 8192x8209[:,:-17] 1024x1024 4096x64x64
echo "ab rc $?"; date -u
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/summary.txt
(cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . ) ; rm -rf $OUT/ab
cd $ROOT/.ab/base
export PYTHONPATH=$PWD
S=$OUT/suite
timeout 200 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"; date -u
tar -czf $OUT/suite.tgz -C $S .
timeout 200 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"; date -u
tar -czf $OUT/suite.tgz -C $S .
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
timeout 90 python3 benchmarks/gpu_time_small.py --out $S/gpu-time-small-h200.json > $S/gpu-time-small-h200.log 2>&1; echo "gpu-time rc $?"
tar -czf $OUT/suite.tgz -C $S .; rm -rf $S
date -u
