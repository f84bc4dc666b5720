#!/usr/bin/env bash
# Session 2026-11-21 c, device call 2 (H200): a = HEAD vs b = 2-byte word-loaded skewed tiles
# 128 x 128 (256-byte input runs, 240-byte output runs, 8 of 128 rows re-read) instead of 256 x 64.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes bfloat16 float16 --shapes 8191x8193 8191x8192 8192x8209[:,:-17] 8192x8192 1024x1024 64x65536
echo "ab rc $?"; date -u
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/summary.txt
(cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . ) ; rm -rf $OUT/ab
date -u
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
. scripts/gpu-build-env
for v in a b; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
  echo "== ncu $v"
  (cd $dir && PYTHONPATH=$dir timeout 90 ncu --clock-control none -k 'regex:tiled_transpose' --metrics $M python3 $ROOT/benchmarks/profile_cases.py odd_bf16 2>&1 | grep -E "tiled_transpose_kernel<|gpu__time|lts__|inst_executed" | sed 's/(gputranspose.*//' | cut -c1-110)
done
date -u
