#!/usr/bin/env bash
# Session e, device call 5: v28 + one-load load_word_before (b) against HEAD (a): CUDA
# tests on b, A/B of 2-byte odd shapes and slices, traces of bf16 8191x8193.
set -uo pipefail
ROOT=$PWD; T0=$SECONDS
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 MAX_JOBS=8
rm -rf build torch_transpose/_C*.so
(cd .ab/base && python3 setup.py build_ext --inplace > /tmp/build-a.log 2>&1; echo "a built rc $?") &
(cd .ab/t_trace && python3 setup.py build_ext --inplace > /tmp/build-t.log 2>&1; echo "trace built rc $?") &
python3 setup.py build_ext --inplace > /tmp/build-b.log 2>&1; echo "b built rc $?"; wait
echo "built at $((SECONDS-T0)) s"
PYTHONPATH=$ROOT timeout 300 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py -q -x -p no:cacheprovider > $OUT/pytest.log 2>&1; echo "pytest rc $?"; tail -1 $OUT/pytest.log
echo "tests at $((SECONDS-T0)) s"
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=2 timeout 150 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes bfloat16 float16 uint8 --shapes 8191x8193 8191x8192 "8192x8209[:,:-17]" 2>&1 | grep -v "^$"
echo "ab at $((SECONDS-T0)) s"
(cd .ab/t_trace && PYTHONPATH=$PWD OUT=$OUT timeout 60 python3 ../trace2.py bfloat16:8191x8193:69 bfloat16:8191x8192:35) 2>&1 | tee $OUT/trace2.txt
(cd $OUT && tar czf ab.tgz ab && rm -rf ab)
echo "total $((SECONDS-T0)) s"
