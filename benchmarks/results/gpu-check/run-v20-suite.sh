#!/usr/bin/env bash
# Device call 3 (H200): the benchmark suite (parts 1 and 2) and the small shapes'
# GPU time on main with the staged-instruction kernels; then the call-1 test order
# again (test_transpose_cuda, test_fuzz, test_pt2 in one process, no CC/CXX) to
# see whether its AOTInductor crash comes back.
cd "$(dirname "$0")/.."
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD
date -u; rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $OUT/build.log 2>&1; echo "built rc $?"
git_rev=$(cat .ab/rev); echo "commit $git_rev"
T0=$SECONDS
python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag h200-part1 --out-dir $OUT > $OUT/bench-part1.log 2>&1; echo "part1 rc $? $((SECONDS-T0)) s"
python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 \
  --tag h200-part2 --out-dir $OUT > $OUT/bench-part2.log 2>&1; echo "part2 rc $? $((SECONDS-T0)) s"
python3 benchmarks/gpu_time_small.py --out $OUT/gpu-time-small-h200.json > $OUT/gpu-time-small-h200.log 2>&1
echo "small rc $? $((SECONDS-T0)) s"
grep -v '^\[' $OUT/bench-part1.log | tail -45; grep -v '^\[' $OUT/bench-part2.log | tail -40
echo "== call-1 test order, no CC/CXX"
T0=$SECONDS
env -u CC -u CXX -u LDSHARED -u LDCXXSHARED GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_FUZZ_PROFILE=gpu \
  timeout $((590 - SECONDS)) python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py tests/test_pt2.py \
  -q -p no:cacheprovider -x > $OUT/pytest-call1-order.log 2>&1
echo "rc $? $((SECONDS-T0)) s"; grep -E "passed|failed|Fatal" $OUT/pytest-call1-order.log | head -3
