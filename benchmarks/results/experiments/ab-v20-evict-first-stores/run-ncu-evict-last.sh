#!/usr/bin/env bash
# Device call 7: why evict_last loads help (v15, v22): ncu of steady-state aligned
# transposes (launches 5-7 of 8, rotating inputs, caches not flushed, application replay),
# a = main, c = v22's c (evict_last, lines never released).
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > /tmp/build-a.log 2>&1) &
(cd .ab/c && python3 setup.py build_ext --inplace > /tmp/build-c.log 2>&1) &
wait
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum
for v in a c; do
  dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  for case in u8 f64; do
    echo "== $v $case"
    (cd $dir && PYTHONPATH=$dir timeout 100 ncu --clock-control none --cache-control none --replay-mode application --print-units base \
      -k regex:tiled_transpose --launch-skip 4 --launch-count 3 --metrics $M python3 $ROOT/benchmarks/results/experiments/ab-v20-evict-first-stores/l2prof.py $case 2>&1 \
      | grep -E "^\s+(gpu__|dram__|lts__)" | awk '{k=$1; v=$NF; gsub(",","",v); s[k]+=v; n[k]++} END {for (k in s) printf "%-62s %12.1f\n", k, s[k]/n[k]}' | sort)
  done
done | tee $OUT/ncu-evict-last.txt
