#!/usr/bin/env bash
# Session h, call 8: oracle (outputs wrong on purpose): the staged kernels without each
# row's last chunk (c), against HEAD (a). Does the fifth L2 sector per staged 128-byte
# row part cost what the sector count suggests?
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $O/build-a.log 2>&1) &
(cd .ab/c && python3 setup.py build_ext --inplace > $O/build-c.log 2>&1) &
wait
echo "built $SECONDS s"; ls .ab/base/torch_transpose/*.so .ab/c/torch_transpose/*.so || exit 1
C="uint8/8191x8193 float8_e4m3fn/8191x8193 uint8/8192x8209[:,:-17] bool/8192x8209[:,:-17] uint8/8191x8192 uint8/8192x8192"
for round in 1 2 3; do for v in a c; do
  dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  (cd $dir && PYTHONPATH=$dir timeout 120 python3 $ROOT/.ab/otime.py $v$round $C >> $O/times.jsonl 2>> $O/err.txt)
  echo "round $round $v $SECONDS s"
done; done
python3 .ab/ocmp.py $O/times.jsonl a,c | tee $O/summary.txt
tail -3 $O/err.txt
rm -f $O/build-*.log
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
