#!/usr/bin/env bash
# v58 device call 5 (session x), on whichever card comes: ncu's L2 counts (one launch each) of
# v46's kernels (tree a, .ab/base at 659ab7c), the product (v55, b) and v58 (c, .ab/c) on the
# 64 MiB copy proxy and the 1- and 2-byte cases v55 and v58 touch, with controls; v18 found
# these counts the same on an H100 and an H200, so that an H100 counts what an H200 serves.
# Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=/tmp/v58c5; mkdir -p $G
tree() { case $1 in a) echo $PWD/.ab/base ;; b) echo $PWD ;; c) echo $PWD/.ab/c ;; esac; }
for t in a b c; do
  (cd $(tree $t) && rm -rf build torch_transpose/_C*.so && MAX_JOBS=6 python3 setup.py build_ext --inplace > $G/build-$t.log 2>&1; echo "built $t rc $?") &
done
wait
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
for t in a b c; do
  PYTHONPATH=$(tree $t) timeout 150 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
    python3 benchmarks/profile_cases.py copyproxy_64M aligned_u8 odd_u8 slice_u8 rows_u8 odd_bf16 slice_bf16 rows_bf16 aligned_bf16 \
    > $OUT/ncu-$t.txt 2>&1
  echo "ncu $t rc $?"
done
python3 benchmarks/results/experiments/v54-l2-sectors/ncu_table.py $OUT/ncu-a.txt $OUT/ncu-b.txt $OUT/ncu-c.txt | tee $OUT/table.txt
date -u | tee -a $OUT/device.txt
