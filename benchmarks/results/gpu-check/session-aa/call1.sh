#!/usr/bin/env bash
# Session aa, call 1, on whichever card comes: where the aligned 1-byte kernel's 6.7x a
# copy's instructions go (v58 call 5: 12.4M warp instructions for uint8 8192^2, 755 a warp).
# Builds the product, dumps the SASS of the 1-byte kernels, and has ncu count each SASS
# instruction's executions (SourceCounters) for uint8 8192^2, 8191x8192, 8191x8193 and the
# slice, one launch each. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
so=$(ls torch_transpose/_C*.so)
for k in 'ILi1ELNS0_6AccessE0ELS2_0ELNS0_6TilingE0ELNS0_7InputL2E1E' 'ILi1ELNS0_6AccessE0ELS2_1ELNS0_6TilingE0ELNS0_7InputL2E0E' \
         'ILi1ELNS0_6AccessE2ELS2_0ELNS0_6TilingE0ELNS0_7InputL2E0E' 'ILi1ELNS0_6AccessE2ELS2_1ELNS0_6TilingE0ELNS0_7InputL2E0E'; do
  f=$(cuobjdump --list-elf "$so" >/dev/null 2>&1; cuobjdump --dump-sass "$so" | grep -o "_ZN12gputranspose4cuda22tiled_transpose_kernel${k}[A-Za-z0-9_]*" | head -1)
  cuobjdump --dump-sass -fun "$f" "$so" > $G/sass-$(echo $k | tr -dc 'A-Z0-9' | tail -c 24).txt 2>&1
done
ls -la $G
M=sm__cycles_elapsed.max,smsp__inst_executed.sum,gpu__time_duration.sum
timeout 200 ncu --clock-control none -k regex:tiled_transpose --section SourceCounters --metrics $M -o $G/rep \
  python3 benchmarks/profile_cases.py aligned_u8 rows_u8 odd_u8 slice_u8 > $G/ncu.log 2>&1; echo "ncu rc $?"
tail -5 $G/ncu.log
for i in 0 1 2 3; do
  timeout 60 ncu -i $G/rep.ncu-rep --page source --csv --print-source sass --launch-skip $i --launch-count 1 \
    > $G/source-$i.csv 2>&1 || timeout 60 ncu -i $G/rep.ncu-rep --page source --csv --print-source sass --filter-mode per-launch-config \
    > $G/source-$i.csv 2>&1
  echo "source $i rc $? $(wc -l < $G/source-$i.csv) lines"; head -3 $G/source-$i.csv | cut -c1-300
done
timeout 60 ncu -i $G/rep.ncu-rep --page details --csv > $G/details.csv 2>&1
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz build.log ncu.log details.csv source-*.csv sass-*.txt && rm -f build.log details.csv source-*.csv sass-*.txt rep.ncu-rep)
ls -la $G
