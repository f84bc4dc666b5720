#!/usr/bin/env bash
# Device call 4 (H200): the small shapes again (host-inclusive, as the suite times
# them), twice with the suite's defaults and once with 200 reps, to see how far
# float64 1024x1024's 1.105x of call 3 was the machine's host noise.
cd "$(dirname "$0")/.."
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD
date -u; rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $? commit $(cat .ab/rev)"
S="--shapes 1024x1024 65536x64 64x65536 4096x64x64"
for run in 1 2; do
  python3 benchmarks/bench_transpose.py $S --tag small-rerun$run --out-dir $OUT > $OUT/small-rerun$run.log 2>&1
  echo "run $run rc $?"; grep -E "^(large|small|vs)" $OUT/small-rerun$run.log
done
python3 benchmarks/bench_transpose.py $S --reps 200 --tag small-reps200 --out-dir $OUT > $OUT/small-reps200.log 2>&1
echo "reps200 rc $?"; grep -E "^(large|small|vs)" $OUT/small-reps200.log
rm -f $OUT/*.png; date -u
