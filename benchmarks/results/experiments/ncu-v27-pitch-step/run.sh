#!/usr/bin/env bash
# Session 2026-11-21 d, device call 11: ncu of the same skewed uint8 kernel on output rows
# whose misalignment steps -1 a row (8191x8192, 1.24x the copy) and +1 (8193x8192, 1.10x),
# beside the aligned kernel (8192x8192) and a copy-like kernel; one launch each, cold caches.
set -uo pipefail
G=/tmp/prof; mkdir -p $G
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"
M=dram__bytes_read.sum,dram__bytes_write.sum,dram__cycles_active.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
PYTHONPATH=$PWD timeout 200 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
  python3 benchmarks/profile_cases.py copyproxy_64M aligned_u8 rows_u8 rows_up_u8 > $G/ncu.txt 2>&1
echo "ncu rc $?"; cp $G/ncu.txt $OUT/
grep -E "tiled_transpose_kernel<|vectorized|gpu__time|dram__|lts__|warps" $G/ncu.txt | sed 's/(gputranspose.*//' | cut -c1-110
