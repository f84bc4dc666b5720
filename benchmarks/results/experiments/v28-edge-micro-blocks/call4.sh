#!/usr/bin/env bash
# Session e, device call 4: v28 with E=2 column edges (working tree, b) against HEAD (a):
# the whole test suite on b, A/B of 8191x8193, per-block traces (.ab/t_trace = b + trace).
set -uo pipefail
ROOT=$PWD; T0=$SECONDS
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 MAX_JOBS=8
rm -rf build torch_transpose/_C*.so
(cd .ab/base && python3 setup.py build_ext --inplace > /tmp/build-a.log 2>&1; echo "a built rc $?") &
(cd .ab/t_trace && python3 setup.py build_ext --inplace > /tmp/build-t.log 2>&1; echo "trace built rc $?") &
python3 setup.py build_ext --inplace > /tmp/build-b.log 2>&1; echo "b built rc $?"; wait
echo "built at $((SECONDS-T0)) s"
PYTHONPATH=$ROOT timeout 330 python3 -m pytest tests -q -x -p no:cacheprovider > $OUT/pytest.log 2>&1; echo "pytest rc $?"; tail -2 $OUT/pytest.log
echo "tests at $((SECONDS-T0)) s"
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=2 timeout 120 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float16 float32 float64 --shapes 8191x8193 2>&1 | grep -v "^$"
echo "ab at $((SECONDS-T0)) s"
(cd .ab/t_trace && PYTHONPATH=$PWD OUT=$OUT timeout 150 python3 ../trace2.py uint8:8191x8193:35 bfloat16:8191x8193:69 float32:8191x8193:69 \
   uint8:8192x8192:64 complex128:8192x8192:128 complex64:16384x16384:256 float64:16384x16384:256) 2>&1 | tee $OUT/trace2.txt
(cd $OUT && tar czf ab.tgz ab && rm -rf ab)
echo "total $((SECONDS-T0)) s"
