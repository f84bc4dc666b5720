#!/usr/bin/env bash
# Session d, call 8: a = HEAD (+ GPUTRANSPOSE_FORCE); b = skewed store writes a tile's rows
# last to first; c = skewed kernels walk tile columns last to first; d = 1-byte aligned-load
# skewed tiles with 64-byte windows. Then a with FORCE=skew for 8- and 16-byte elements whose
# output rows are 16 mod 32 bytes.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
for v in a b c d; do
  (cd .ab/t_$v && python3 setup.py build_ext --inplace > $O/build-$v.log 2>&1 || echo "build $v failed") &
done
wait
echo "built $SECONDS s"
C="uint8/8191x8192 uint8/8193x8192 uint8/8199x8192 uint8/8191x8193 bfloat16/8191x8192 bfloat16/8193x8192"
W="float64/8194x8192 complex64/8194x8192 complex128/8191x8192 complex128/8191x8193 complex128/8193x8192 complex128/8192x8192 float32/8196x8192"
for round in 1 2 3; do
  for v in a b c d; do
    (cd .ab/t_$v && PYTHONPATH=$ROOT/.ab/t_$v timeout 60 python3 $ROOT/.ab/otime.py $v$round $C) >> $O/times.jsonl 2>> $O/err.txt
  done
  echo "round $round $SECONDS s"
done
for round in 1 2; do
  (cd .ab/t_a && PYTHONPATH=$ROOT/.ab/t_a timeout 100 python3 $ROOT/.ab/otime.py n$round $W) >> $O/wide.jsonl 2>> $O/err.txt
  (cd .ab/t_a && GPUTRANSPOSE_FORCE=skew PYTHONPATH=$ROOT/.ab/t_a timeout 100 python3 $ROOT/.ab/otime.py s$round $W) >> $O/wide.jsonl 2>> $O/err.txt
  echo "wide round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl a,b,c,d | tee $O/summary.txt
python3 .ab/ocmp.py $O/wide.jsonl n,s | tee -a $O/summary.txt
tail -3 $O/err.txt
cd $O && rm -f build*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
