#!/usr/bin/env bash
# Session 2026-11-21 c, device call 3 (H200): a = HEAD (v26), b = 2-byte word-loaded tiles with
# aligned stores 64 x 256 (512-byte input runs) instead of 128 x 128, c = b + 4-byte word-loaded
# skewed tiles 128 x 128 (64 KiB, 512-byte input runs) instead of 128 x 64. ncu of the two cases.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes bfloat16 float16 float32 --shapes 8192x8209[:,:-17] 8191x8193 8191x8192 8192x8192
echo "ab rc $?"; date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
. scripts/gpu-build-env
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== ncu $v"
  (cd $dir && PYTHONPATH=$dir timeout 90 ncu --clock-control none -k 'regex:tiled_transpose' --metrics $M python3 $ROOT/benchmarks/profile_cases.py slice_bf16 odd_f32 2>&1 | grep -E "tiled_transpose_kernel<|gpu__time|lts__|inst_executed|warps_active" | sed 's/(gputranspose.*//' | cut -c1-110)
done | tee $OUT/ab/ncu.txt
(cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . ) ; rm -rf $OUT/ab
date -u
