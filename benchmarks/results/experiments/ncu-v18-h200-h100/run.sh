#!/usr/bin/env bash
# Device call 37: ncu profile of the v18 kernels (one launch each, cold caches), the metrics of
# v16's profile, beside a copy-like elementwise kernel.
set -uo pipefail
G=/tmp/prof; mkdir -p $G
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "built rc $?"
M=dram__bytes_read.sum,dram__bytes_write.sum,dram__cycles_active.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
PYTHONPATH=$PWD timeout 240 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
  python3 benchmarks/profile_cases.py copyproxy_64M aligned_u8 rows_u8 slice_u8 odd_u8 aligned_bf16 odd_bf16 odd_f32 > $G/ncu-v18-h200.txt 2>&1
echo "ncu rc $?"; cp $G/ncu-v18-h200.txt $OUT/; date -u
grep -E "tiled_transpose_kernel<|vectorized|gpu__time|inst_executed|sectors_op_read|ltcfabric" $G/ncu-v18-h200.txt | sed 's/(gputranspose.*//' | cut -c1-120
