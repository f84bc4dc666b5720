#!/usr/bin/env bash
# Device call 2 (H200): gpu-check SANITIZE=1 on main with the staged-instruction
# kernels; ncu of the 1-byte kernels; the AOTInductor test without the system g++.
cd "$(dirname "$0")/.."
G=$OUT/gpu-check; mkdir -p $G
rm -rf build torch_transpose/_C*.so
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared"
date -u; T0=$SECONDS
OUT=$G SANITIZE=1 BENCH_ARGS=skip TEST_TIMEOUT=300 SANITIZE_TIMEOUT=240 scripts/gpu-check 2>&1 | tee $G/gpu-check.log | tail -40
echo "gpu-check rc ${PIPESTATUS[0]} took $((SECONDS-T0)) s"
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__cycles_active.avg.pct_of_peak_sustained_elapsed
PYTHONPATH=$PWD timeout 100 ncu --clock-control none -k 'regex:tiled_transpose' --metrics $M \
  python3 benchmarks/profile_cases.py aligned_u8 rows_u8 slice_u8 odd_u8 > $OUT/ncu-h200.txt 2>&1
echo "ncu rc $?"
grep -E "tiled_transpose_kernel<|gpu__time|inst_executed|issue_active|sectors_op_read" $OUT/ncu-h200.txt | sed 's/(gputranspose.*//' | cut -c1-110
echo "== AOTInductor test with the machine's default compiler (no CC/CXX)"
env -u CC -u CXX -u LDSHARED -u LDCXXSHARED GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 120 \
  python3 -m pytest tests/test_pt2.py -k aot_inductor -q -p no:cacheprovider > $OUT/aoti-default-cxx.log 2>&1
echo "rc $?"; grep -E "passed|failed|Fatal" $OUT/aoti-default-cxx.log | head; which g++; g++ --version | head -1
date -u
