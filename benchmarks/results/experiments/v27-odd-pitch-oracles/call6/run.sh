#!/usr/bin/env bash
# Session d, call 6: HEAD. How the output pitch P (input P x 8192, output 8192 rows of P
# elements) and the input pitch (8192 x P) set the time: sector, line, or more?
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
C=""
for d in uint8 bfloat16; do
  for p in 8191 8193 8200 8208 8224 8240 8256 8288 8320 8384 8448 8704; do C="$C $d/${p}x8192"; done
  for p in 8193 8208 8224 8256 8320; do C="$C $d/8192x${p}"; done
done
for round in 1 2; do
  PYTHONPATH=$ROOT timeout 200 python3 .ab/otime.py a$round $C >> $O/times.jsonl 2>> $O/err.txt
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl a | tee $O/summary.txt
tail -3 $O/err.txt
cd $O && rm -f build*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
