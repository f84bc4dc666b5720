#!/usr/bin/env bash
# Session e, device call 1: does the -1 step cost with data in L2 (hot), and what do the
# SM-side counters say for 8191 vs 8193 output pitches (ncu sections, raw).
set -uo pipefail
T0=$SECONDS
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $? in $((SECONDS-T0)) s"
PYTHONPATH=$PWD timeout 200 python3 .ab/hot.py hot:3x2047x2048 hot:3x2049x2048 hot:3x2048x2048 hot:3x2063x2048 hot:3x2057x2048 \
  hot:2047x4096 hot:4097x4096 hot:4096x4096 cold:8191x8192 cold:8193x8192 cold:8192x8192 2>&1 | tee $OUT/hot.txt
echo "hot done at $((SECONDS-T0)) s"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis"
PYTHONPATH=$PWD timeout 240 ncu --clock-control none -k regex:tiled_transpose $S -o /tmp/steps \
  python3 benchmarks/profile_cases.py aligned_u8 rows_u8 rows_up_u8 > /tmp/ncu-run.log 2>&1; echo "ncu rc $?"
tail -3 /tmp/ncu-run.log
ncu -i /tmp/steps.ncu-rep --page details --print-details all > $OUT/details.txt 2>&1
ncu -i /tmp/steps.ncu-rep --page raw --csv > $OUT/raw.csv 2>&1
cp /tmp/steps.ncu-rep $OUT/
ls -la $OUT; echo "total $((SECONDS-T0)) s"
