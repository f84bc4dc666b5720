#!/usr/bin/env bash
# Session e, device call 3: v28 (edge micro-blocks without a round trip per element)
# against HEAD (.ab/base): build both, CUDA edge tests on v28, then A/B of the odd
# shapes (bench_transpose, alternating) and the output-pitch sweep (bench_pitches).
set -uo pipefail
ROOT=$PWD; T0=$SECONDS
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
(cd .ab/base && python3 setup.py build_ext --inplace > /tmp/build-a.log 2>&1; echo "a built rc $?") &
python3 setup.py build_ext --inplace > /tmp/build-b.log 2>&1; echo "b built rc $?"; wait
echo "built at $((SECONDS-T0)) s"
PYTHONPATH=$ROOT timeout 240 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py -q -x \
  -k "every_dtype or tile_edges or large_and_prime or misaligned or mid_sector or each_layout or batches or small_and_wide or fuzz_cuda" 2>&1 | tail -4
echo "tests at $((SECONDS-T0)) s"
mkdir -p $OUT/ab $OUT/p
OUT=$OUT/ab AB_ROUNDS=2 timeout 200 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --shapes 8191x8193 8191x8192 2>&1 | grep -v "^$"
echo "ab at $((SECONDS-T0)) s"
PITCH="--dtypes uint8 bfloat16 float32 --pitches 8191 8193 8197 8201 8205 8209 8192 --reps 30 --rounds 3"
for round in 1 2; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/benchmarks/bench_pitches.py $PITCH --out $OUT/p/pitches-$v$round.json > $OUT/p/pitches-$v$round.log 2>&1); echo "pitches $v$round rc $?"
  done
done
(cd $OUT && tar czf ab.tgz ab p && rm -rf ab p)
echo "total $((SECONDS-T0)) s"
