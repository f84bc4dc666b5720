#!/usr/bin/env bash
# Session aa, call 4, asked of an H200 (kind nvidia-h200; H100s mostly come): the final code.
# On an H200, session z's call 4 (a clean build, both parts of the benchmark suite, the test
# suite with CUDA required; its H200 tables are v46's kernels). On an H100, a clean build and
# the whole test suite with CUDA required (no huge tests: call 5), since the final commit's host
# code (197fbc0, the launcher's refactor) has run on a GPU only in call 2's A/B tree a and call
# 3's. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"
case "$name" in
  *H200*) exec bash benchmarks/results/gpu-check/session-z/call4.sh ;;
esac
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
git log -1 --format='%H %s' 2>/dev/null | cut -c1-80 | tee -a $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G BENCH_ARGS=skip GPUTRANSPOSE_HUGE=0 TEST_TIMEOUT=470 bash scripts/gpu-check > $G/gpu-check.log 2>&1; echo "gpu-check rc $?"
grep -E "^(ptxas|SASS|FAIL|fuzz)" $G/gpu-check.log | tee $G/gpu-check-summary.txt
tail -3 $G/pytest.log | tee -a $G/gpu-check-summary.txt
python3 benchmarks/results/gpu-check/session-z/ptxas_diff.py benchmarks/results/gpu-check/session-z/c1/ptxas-v64.txt $G/ptxas.txt | head -3
rm -f $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz gpu-check.log pytest.log ptxas.txt && rm -f gpu-check.log pytest.log)
ls $G
