#!/usr/bin/env bash
# Device call 7 (H200): A/B main (a) against cp.async.ca staging (b), then ncu of b's
# staged kernels (L2 requests and sectors from the SMs) and b's 1-byte GPU tests.
cd "$(dirname "$0")/.."
OUT=$OUT/ab AB_ROUNDS=3 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 float8_e4m3fn --shapes 8191x8193 "8192x8209[:,:-17]" 8191x8192 8192x8192
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/summary.txt
export PYTHONPATH=$PWD
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
timeout 60 ncu --clock-control none -k 'regex:tiled_transpose' --metrics $M \
  python3 benchmarks/profile_cases.py slice_u8 odd_u8 > $OUT/ncu-b.txt 2>&1; echo "ncu rc $?"
grep -E "kernel<|\.sum" $OUT/ncu-b.txt | sed 's/(gputranspose.*//' | cut -c1-110
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 100 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider \
  -k "uint8 or bool or float8 or int8" 2>&1 | tail -3
