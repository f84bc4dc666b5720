#!/usr/bin/env bash
# Session d, call 3: a = HEAD; b = 1-byte skewed tiles writing exactly their 256 rows (no LEAD rows;
# partial chunks at both ends); c, d = oracles (wrong output): b's addresses 16-byte aligned down, full
# chunks only, unshifted; d the same aligned down to 128-byte lines. Then b's CUDA tests.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
TREES=${TREES:-a b c d}
for v in $TREES; do
  dir=$ROOT/.ab/t_$v; [ $v = a ] && dir=$ROOT/.ab/base
  (cd $dir && python3 setup.py build_ext --inplace > $O/build-$v.log 2>&1 || echo "build $v failed") &
done
wait
echo "built $SECONDS s"
CASES=${CASES:-"uint8/8191x8192 uint8/8191x8193 uint8/8192x8192 uint8/8192x8209[:,:-17] bool/8191x8192"}
for round in 1 2 3; do
  for v in $TREES; do
    dir=$ROOT/.ab/t_$v; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/.ab/otime.py $v$round $CASES) >> $O/times.jsonl 2>> $O/err.txt
  done
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl ${TREES// /,} | tee $O/summary.txt
tail -5 $O/err.txt
(cd .ab/t_b && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT/.ab/t_b timeout 90 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider 2>&1 | tail -3)
cd $O && rm -f build-*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
