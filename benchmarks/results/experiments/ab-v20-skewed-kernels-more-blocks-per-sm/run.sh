#!/usr/bin/env bash
# Device call 2: A/B a = main (v20), b = skewed aligned-load kernels held to more blocks
# per SM by __launch_bounds__ (2-byte 3, 1- and 4-byte 4), c = b + 2-byte word-loaded
# kernels at 6 blocks per SM (40 registers).
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float16 float32 \
  --shapes 8191x8192 8191x8193 "8192x8209[:,:-17]" 8192x8192
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
grep -h "spill stores" $OUT/ab/build-b.log | sort | uniq -c
cd $OUT/ab && tar czf ../ab.tgz . && cd $ROOT && rm -rf $OUT/ab
