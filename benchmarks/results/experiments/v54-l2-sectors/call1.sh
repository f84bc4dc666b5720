#!/usr/bin/env bash
# v54 device call 1 (session w): L2 sector counts of the current kernels (HEAD, tree a, from
# `scripts/ab-bench prepare HEAD` in .ab/base) and of the same kernels without the L2
# prefetch-size hint on unaligned loads (the working tree, tree b, no-prefetch-hint.diff):
# one ncu launch per case and tree, then three alternating timing rounds of bench_pitches.py.
# Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=/tmp/v54; mkdir -p $G
for t in .ab/base .; do
  (cd $t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace > $G/build-$(basename $(realpath $t)).log 2>&1; echo "built $t rc $?") &
done
wait
ncu --query-metrics --chip gh100 > $G/metrics.txt 2>&1
WANT="gpu__time_duration.sum dram__bytes_read.sum dram__bytes_write.sum lts__t_sectors_op_read.sum
lts__t_sectors_op_write.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum
lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_ltcfabric_op_read.sum
lts__t_requests_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_write.sum
lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed smsp__inst_executed.sum
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
M=""
for m in $WANT; do base=${m%.*}; grep -q "^$base " $G/metrics.txt && M="$M,$m" || echo "no metric $base"; done
M=${M#,}
[ -n "$M" ] || { echo "metric query failed: the v18 list"; M=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum; }
echo "metrics: $M"
CASES="copyproxy_64M aligned_u8 rows_u8 slice_u8 odd_u8 aligned_bf16 odd_bf16 slice_bf16 odd_f32"
for t in a b; do
  root=$PWD; [ $t = a ] && root=$PWD/.ab/base
  PYTHONPATH=$root timeout 200 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
    python3 benchmarks/profile_cases.py $CASES > $OUT/ncu-$t.txt 2>&1
  echo "ncu $t rc $?"
done
date -u
for round in 1 2 3; do
  for t in a b; do
    root=$PWD; [ $t = a ] && root=$PWD/.ab/base
    PYTHONPATH=$root timeout 100 python3 benchmarks/bench_pitches.py --tag "$t$round" --out $G/$t$round.json \
      --cases uint8:8191x8193 uint8:8192x8192:8209 uint8:8191x8192 uint8:8192x8192 bfloat16:8191x8193 \
      float32:8191x8193 float64:8191x8193 float32:8192x8192:8209 > $G/$t$round.log 2>&1 || echo "$t$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b $G | tee $OUT/summary.txt
tar -czf $OUT/logs.tgz -C $G . ; date -u
