#!/usr/bin/env bash
# Device call 5: A/B a = main (v20), b = 1-byte tiles with both sides aligned (Wide) taking
# 8-byte pieces: 16x8-byte micro-blocks, 256 threads one micro-block each (48 registers)
# instead of 16x4-byte ones, two each (62). Then b's 1-byte CUDA tests.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bool float8_e4m3fn bfloat16 \
  --shapes 8192x8192 16384x16384 4096x32768 32768x4096 32x2048x2048 65536x64 64x65536 1024x1024
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/summary.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 100 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider -k "uint8 or bool or float8 or int8" 2>&1 | tail -2
cd $OUT/ab && tar czf ../ab.tgz . && cd $ROOT && rm -rf $OUT/ab
