#!/usr/bin/env bash
# Session ae, call 1: the final code's benchmark suite (v79; the committed H100 tables are
# v77's code, session ac call 3): a clean build through scripts/gpu-check (ptxas and SASS
# checks, ptxas report against session ac's), then both parts of the suite on one machine.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
tar -xzOf benchmarks/results/gpu-check/session-ac/c3/logs.tgz ptxas.txt > /tmp/ac-ptxas.txt
python3 benchmarks/results/gpu-check/session-z/ptxas_diff.py /tmp/ac-ptxas.txt \
  $G/ptxas.txt | tee -a $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
for part in 1 2; do
  dtypes="uint8 bool float8_e4m3fn bfloat16 float16"; [ $part = 2 ] && dtypes="float32 float64 complex64 complex128"
  timeout 200 python3 benchmarks/bench_transpose.py --dtypes $dtypes --tag part$part --out-dir $G \
    > $G/bench-part$part.log 2>&1; echo "part$part rc $?"
  grep -hE "^(large|small|vs |extra)" $G/bench-part$part.log
done
rm -f $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
keep='^(device.txt|gpu-check-summary.txt|bench-part[12].(json|png))$'
(cd $G && tar -czf logs.tgz $(ls | grep -vE "$keep") && ls | grep -vE "$keep|^logs.tgz$" | xargs rm -f)
ls $G
