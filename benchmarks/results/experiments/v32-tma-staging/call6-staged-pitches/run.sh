#!/usr/bin/env bash
# Session i, call 6: the staged aligned-store kernel on shapes whose columns are not a
# whole number of 256-byte tiles (HEAD's code).
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { echo "build failed"; tail -30 $O/build.log; }
echo "built $SECONDS s"
C="uint8/8192x8191 uint8/8192x8193 uint8/8192x8209[:,:-17] uint8/8192x8190 uint8/8192x8177 uint8/2x4096x4095 uint8/4096x4095 uint8/4096x4097 uint8/16384x8191 uint8/8191x8193"
for round in 1 2; do
  PYTHONPATH=$ROOT timeout 100 python3 .ab/otime.py a$round $C >> $O/times.jsonl 2>> $O/err.txt
done
python3 .ab/ocmp.py $O/times.jsonl a | tee $O/summary.txt
tail -3 $O/err.txt
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
