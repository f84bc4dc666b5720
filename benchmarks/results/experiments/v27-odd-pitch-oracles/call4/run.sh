#!/usr/bin/env bash
# Session d, call 4: HEAD only. Do non-power-of-two pitches slow the aligned kernels?
# (input pitch, output pitch): 8192x8192 (8192, 8192); 8208x8192 (8192, 8208);
# 8192x8208 (8208, 8192); 8320x8192 (8192, 8320); 8192x8320 (8320, 8192); 8191x8192 (8192, 8191).
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
C=""
for d in uint8 bfloat16 float32; do for s in 8192x8192 8208x8192 8192x8208 8320x8192 8192x8320 8191x8192 8448x8192 8192x8448; do C="$C $d/$s"; done; done
for round in 1 2; do
  PYTHONPATH=$ROOT timeout 120 python3 .ab/otime.py a$round $C >> $O/times.jsonl 2>> $O/err.txt
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl a | tee $O/summary.txt
tail -5 $O/err.txt
cd $O && rm -f build*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
