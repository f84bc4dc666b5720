#!/usr/bin/env bash
# Session 2026-11-21 g, device call 6 (H200): oracles (outputs wrong on purpose) for the
# staged 1-byte kernels: what their block barriers cost. a = HEAD (v30); b = no block
# barrier after staging whole tiles (each warp waits for its own copies only); c = b and
# no barrier between the phases either (upper bound of a kernel without block barriers).
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $O/build-a.log 2>&1) &
(python3 setup.py build_ext --inplace > $O/build-b.log 2>&1) &
(cd .ab/c && python3 setup.py build_ext --inplace > $O/build-c.log 2>&1) &
wait
echo "built $SECONDS s"
CASES="uint8/8191x8193 uint8/8192x8209[:,:-17] float8_e4m3fn/8191x8193 uint8/8191x8192 uint8/8192x8192 bfloat16/8191x8193"
for round in 1 2 3; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
    (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/.ab/otime.py $v$round $CASES) >> $O/times.jsonl 2>> $O/err.txt
  done
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl a,b,c | tee $O/summary.txt
tail -5 $O/err.txt
cd $O && rm -f build-*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
