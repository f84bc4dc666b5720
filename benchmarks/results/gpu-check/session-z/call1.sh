#!/usr/bin/env bash
# Session z, call 1, on whichever card comes: the overlapping-batches fix (matrices under
# 16 bytes apart stop their unaligned loads at the input's end: first_matrix_near_end).
# Builds the fix (the working tree, through scripts/gpu-check: SASS and ptxas summary) and
# the code before it (.pre-fix: `git archive 9c71d83` of the build inputs; carry it) side
# by side; memcheck over the new "overlapping batches" cases on both (before: predicted to
# read past the input's end; after: 0 errors), on the real L2 and on a 64 KiB one with
# staged 2-byte rows forced on; then scripts/sanitize whole (six passes) on the fix, the
# GPUTRANSPOSE_HUGE tests, and part 2 of the benchmark suite. From the repository root.
# On an H200, the H200 A/B that sessions x and y asked for instead (v58's call 8; carry .ab).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;;
esac
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONUNBUFFERED=1
(cd .pre-fix && rm -rf build torch_transpose/_C*.so &&
  MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build-pre-fix.log 2>&1
  echo "pre-fix build rc $?") &
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip MAX_JOBS=8 bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
wait
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
grep -E "Used [0-9]+ registers" $G/build-pre-fix.log | sed 's/^ *//' | sort > $G/registers-pre-fix.txt
grep -E "Used [0-9]+ registers" $G/build.log | sed 's/^ *//' | sort > $G/registers-fix.txt
echo "register lines differing (pre-fix vs fix): $(diff $G/registers-pre-fix.txt $G/registers-fix.txt | grep -c '^[<>]')"
for tree in pre-fix fix; do
  dir=$PWD; [ $tree = pre-fix ] && dir=$PWD/.pre-fix
  for l2 in real 64KiB; do
    extra=""; [ $l2 = 64KiB ] && extra="GPUTRANSPOSE_L2_BYTES=65536 GPUTRANSPOSE_STAGED_2_BYTE=1"
    log=$G/memcheck-overlap-$tree-$l2.log
    env PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=$dir $extra timeout 120 compute-sanitizer --tool memcheck \
      --print-limit 10 python3 scripts/sanitizer_cases.py "overlapping batches" > $log 2>&1
    echo "$tree, $l2 L2: rc $?; $(grep -E 'ERROR SUMMARY' $log | tail -1); $(grep -E 'cases, ' $log)"
  done
done
grep -m3 -E "Invalid|out of bounds|Address" $G/memcheck-overlap-pre-fix-real.log
OUT=$G timeout 300 bash scripts/sanitize; echo "sanitize rc $?"
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests/test_reliability.py \
  -q -p no:cacheprovider -k "huge or 2_pow" > $G/pytest-huge.log 2>&1; echo "huge rc $?"; tail -1 $G/pytest-huge.log
PYTHONPATH=$PWD timeout 90 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 \
  --tag part2 --out-dir $G > $G/bench-part2.log 2>&1; echo "part2 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part2.log
rm -f $G/*.png $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
# At most 8 files come back: the logs in one tarball.
(cd $G && tar -czf logs.tgz $(ls | grep -vE '^(device.txt|gpu-check-summary.txt|bench-part2.(json|log))$') &&
  ls | grep -vE '^(logs.tgz|device.txt|gpu-check-summary.txt|bench-part2.(json|log))$' | xargs rm -f)
ls $G
