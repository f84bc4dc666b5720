#!/usr/bin/env bash
# v55 device call 1 (session w): each staged chunk at its source's offset in a 32-byte sector
# (the working tree, tree b, sector-aligned-staging.diff) against HEAD (tree a, .ab/base from
# `scripts/ab-bench prepare HEAD`): ncu's L2 sector counts of the staged cases, three
# alternating timing rounds of bench_pitches.py, then tree b's CUDA tests of 1-byte, odd,
# sliced and strided cases. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=/tmp/v55; mkdir -p $G
for t in a b; do
  root=$PWD; [ $t = a ] && root=$PWD/.ab/base
  (cd $root && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build-$t.log 2>&1; echo "built $t rc $?") &
done
wait
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
for t in a b; do
  root=$PWD; [ $t = a ] && root=$PWD/.ab/base
  PYTHONPATH=$root timeout 120 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
    python3 benchmarks/profile_cases.py copyproxy_64M aligned_u8 slice_u8 odd_u8 > $OUT/ncu-$t.txt 2>&1
  echo "ncu $t rc $?"
done
python3 benchmarks/results/experiments/v54-l2-sectors/ncu_table.py $OUT/ncu-a.txt $OUT/ncu-b.txt
for round in 1 2 3; do
  for t in a b; do
    root=$PWD; [ $t = a ] && root=$PWD/.ab/base
    PYTHONPATH=$root timeout 100 python3 benchmarks/bench_pitches.py --tag "$t$round" --out $G/$t$round.json \
      --cases uint8:8191x8193 uint8:8192x8192:8209 bool:8191x8193 uint8:16384x16384:16401 uint8:8192x8193 \
      uint8:4096x4096:4113 uint8:1024x1024:1041 uint8:8191x8192 uint8:8192x8192 > $G/$t$round.log 2>&1 || echo "$t$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b $G | tee $OUT/summary.txt
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "uint8 or bool or float8 or odd or slice or stride" > $G/tests.log 2>&1; echo "tests rc $?"; tail -3 $G/tests.log
tar -czf $OUT/logs.tgz -C $G . ; date -u
