#!/usr/bin/env bash
# Session h, call 2: tile groups of 16 tile-rows (b, GPUTRANSPOSE_TILE_GROUP=16) against
# the default whole-column walk (a), one build, processes alternating a b a b a b; the
# 4- to 16-byte shapes whose input or output rows lie a power of two >= 64 KiB apart.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
for round in 1 2 3; do for v in a b; do
  G=0; [ $v = b ] && G=16
  GPUTRANSPOSE_TILE_GROUP=$G PYTHONPATH=$ROOT timeout 200 python3 benchmarks/bench_transpose.py --no-compile \
     --reps 30 --rounds 3 --dtypes float32 float64 complex64 complex128 \
     --shapes 8192x8192 16384x16384 4096x32768 32768x4096 8191x8192 \
     --out-dir $O --tag ab-$v$round 2>&1 | grep -E '^(float|complex)' > $O/log-$v$round.txt
  echo "round $round $v $SECONDS s"
done; done
python3 .ab/cmp.py $O a,b | tee $O/summary.txt
rm -f $O/*.png $O/build.log
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
