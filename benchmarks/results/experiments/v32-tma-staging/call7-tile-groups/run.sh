#!/usr/bin/env bash
# Session i, call 7: tile-walk group sizes (GPUTRANSPOSE_TILE_GROUP) on the odd 1-byte
# shapes, HEAD's code: a = default (a whole column of tiles), g1/g2/g4/g8 tile-rows.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { echo "build failed"; tail -30 $O/build.log; }
echo "built $SECONDS s"
C="uint8/8191x8193 uint8/8192x8209[:,:-17] uint8/8192x8193 uint8/8192x8191 bfloat16/8191x8193 uint8/8191x8192 uint8/8192x8192"
for round in 1 2; do
  for g in a 1 2 4 8; do
    if [ $g = a ]; then env=""; else env="GPUTRANSPOSE_TILE_GROUP=$g"; fi
    env $env PYTHONPATH=$ROOT timeout 100 python3 .ab/otime.py $g$round $C >> $O/times.jsonl 2>> $O/err.txt
  done
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl a,1,2,4,8 | tee $O/summary.txt
tail -3 $O/err.txt
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
