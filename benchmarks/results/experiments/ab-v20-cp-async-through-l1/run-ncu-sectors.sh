#!/usr/bin/env bash
# Device call 6 (H200): where the staged 1-byte kernels' extra L2 read sectors come
# from. Per kind of memory instruction (cp.async = LDGSTS, LDG), the L1TEX requests
# and sectors, and the L2's read sectors counted from the SMs against all of them.
cd "$(dirname "$0")/.."
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared" PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD
date -u; rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $? commit $(cat .ab/rev)"
ncu --query-metrics --chip gh100 > $OUT/query.txt 2>&1
echo "query: $(wc -l < $OUT/query.txt) lines"
grep -E "^(lts__t_sectors|lts__t_requests|l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_(ld|ldgsts|st)|lts__ltcfabric|lts__t_sectors_srcunit)" $OUT/query.txt | awk '{print $1}' | sort -u > $OUT/candidates.txt
wc -l < $OUT/candidates.txt
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum
for m in lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_ltcfabric_op_read lts__t_requests_srcunit_tex_op_read \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_ld \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass \
         l1tex__t_sectors_pipe_lsu_mem_global_op_st l1tex__t_requests_pipe_lsu_mem_global_op_st lts__t_sectors_op_write lts__t_sectors_srcunit_tex_op_write; do
  grep -qx "$m" $OUT/candidates.txt && M=$M,$m.sum
done
echo "metrics: $M"
timeout 150 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
  python3 benchmarks/profile_cases.py copyproxy_64M aligned_u8 rows_u8 slice_u8 odd_u8 > $OUT/ncu-sectors-h200.txt 2>&1
echo "ncu rc $?"
grep -vE "^==PROF==|^ *-+ *$" $OUT/ncu-sectors-h200.txt | grep -E "kernel|elementwise|\.sum" | sed 's/(gputranspose.*//;s/(TensorIterator.*//' | cut -c1-120
date -u
