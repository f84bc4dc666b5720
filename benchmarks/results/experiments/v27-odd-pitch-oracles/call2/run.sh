#!/usr/bin/env bash
# Session d, call 2: a = HEAD; b = 1-byte skewed tiles with line-aligned (128-byte) write
# windows (LEAD 128 rows of 256); c = b without loading the LEAD rows (oracle, wrong output);
# d = 1-byte aligned tiles in the skewed tiles' geometry (256 x 128, 512 threads).
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
cd $O && rm -f build-*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
