#!/usr/bin/env bash
# Device call 28: benchmark part 2 on v18; GPU time of small shapes, v18 and v17 (.ab/base).
set -uo pipefail
G=/tmp/g28; mkdir -p $G
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
ROOT=$PWD
(cd .ab/base && python3 setup.py build_ext --inplace > $G/build-base.log 2>&1; echo "base built rc $?") &
ls torch_transpose/_C*.so >/dev/null 2>&1 || { python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"; }
wait
export PYTHONPATH=$ROOT
python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $G > $G/bench-part2.log 2>&1; echo "part2 rc $?"
tar -czf $OUT/g28.tgz -C $G --exclude 'build*.log' .
grep -hE "^(large|small|vs |extra)" $G/bench-part2.log
EXTRA="--shapes 1024x1024 65536x64 64x65536 4096x64x64"
for round in 1 2; do
  PYTHONPATH=$ROOT python3 benchmarks/gpu_time_small.py --out $G/gpu-time-small-v18-$round.json > $G/gpu-time-small-v18-$round.log 2>&1; echo "v18 rc $?"
  PYTHONPATH=$ROOT/.ab/base python3 benchmarks/gpu_time_small.py --out $G/gpu-time-small-v17-$round.json > $G/gpu-time-small-v17-$round.log 2>&1; echo "v17 rc $?"
  tar -czf $OUT/g28.tgz -C $G --exclude 'build*.log' .
done
for v in v18 v17; do
  PYTHONPATH=$ROOT$([ $v = v17 ] && echo /.ab/base) python3 benchmarks/gpu_time_small.py --dtypes uint8 --shapes 2048x2048 4096x4096 2048x8192 4096x8192 --out $G/gpu-time-uint8-mid-$v.json > $G/gpu-time-uint8-mid-$v.log 2>&1
done
tar -czf $OUT/g28.tgz -C $G --exclude 'build*.log' .
paste $G/gpu-time-small-v18-1.log $G/gpu-time-small-v17-1.log | cut -c1-200
cat $G/gpu-time-uint8-mid-v18.log $G/gpu-time-uint8-mid-v17.log
