#!/usr/bin/env bash
# Session 2026-11-21 c, device call 4 (H200): a = HEAD, b = 4- and 8-byte skewed tiles with
# word-shifted loads twice as wide (512-byte input runs, 64 KiB) at 1024 threads (one or two
# micro-blocks a thread, 32 registers: two blocks, 64 warps per SM), c = 8-byte ones 64 x 64
# (512-byte runs in 32 KiB, 4 of 64 rows re-read). ncu of float32 and float64 8191x8193.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes float32 float64 complex64 --shapes 8191x8193 8191x8192 8192x8209[:,:-17]
echo "ab rc $?"; date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
. scripts/gpu-build-env
for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  echo "== ncu $v"
  (cd $dir && PYTHONPATH=$dir timeout 90 ncu --clock-control none -k 'regex:tiled_transpose' --metrics $M python3 $ROOT/benchmarks/profile_cases.py odd_f32 odd_f64 2>&1 | grep -E "tiled_transpose_kernel<|gpu__time|lts__|inst_executed|warps_active" | sed 's/(gputranspose.*//' | cut -c1-110)
done | tee $OUT/ab/ncu.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 60 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider -k "float32 or float64 or complex64" 2>&1 | tail -1
(cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . ) ; rm -rf $OUT/ab
date -u
