#!/usr/bin/env bash
# Session af, the rule as product (tile_group_rows: rows that start anywhere walk 8 tile-rows
# at a time where a column of tiles is more than half the blocks the device holds): one
# build; a = GPUTRANSPOSE_TILE_GROUP=1000000 (whole columns everywhere: the walk before the
# rule), b = the rule; processes in the order a b b a; then the walk and tall-tile tests.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/rule; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
cases="uint8:65536x2049 bfloat16:65536x2049 uint8:131072x1025 uint8:32768x4097 bfloat16:32768x4097
  float32:32768x4097 float64:32768x4097 complex128:32768x4097 float32:16384x16384:16401
  uint8:8192x8192:8209 uint8:8191x8193 bfloat16:8192x8192:8209 float32:8191x8193
  complex128:8191x8193 uint8:16384x16384:16401 bfloat16:16384x16384:16401 uint8:65536x2048"
run=0
for v in a b b a; do
  run=$((run + 1))
  if [ $v = a ]; then export GPUTRANSPOSE_TILE_GROUP=1000000; else unset GPUTRANSPOSE_TILE_GROUP; fi
  timeout 120 python3 benchmarks/bench_pitches.py --rounds 2 --tag $v --out $G/run$run-$v.json \
    --cases $cases > $G/run$run-$v.log 2>&1
  echo "run $run ($v) rc $?"
done
unset GPUTRANSPOSE_TILE_GROUP
python3 - $G <<'PY'
import json, sys, glob, statistics
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/run*.json")):
    for r in json.load(open(f))["rows"]:
        rows.setdefault(r["dtype"] + " " + r["shape"], {}).setdefault(r["tag"], []).append(r)
for case, by in rows.items():
    a = [r["ours_over_copy"] for r in by["a"]]; b = [r["ours_over_copy"] for r in by["b"]]
    ta = statistics.mean(r["gputranspose_us"] for r in by["a"]); tb = statistics.mean(r["gputranspose_us"] for r in by["b"])
    print(f"{case:34s} a {min(a):.3f}-{max(a):.3f}  b {min(b):.3f}-{max(b):.3f}  b/a {100*(tb/ta-1):+.1f}%")
PY
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 200 python3 -m pytest tests/test_transpose_cuda.py -q -rs -p no:cacheprovider \
  -k "tall or tile_walk or interleaved or long_output or unaligned" > $G/tests.log 2>&1; echo "tests rc $?"; tail -1 $G/tests.log
date -u | tee -a $G/device.txt
rm -f $G/sass.txt $G/build.log
(cd $G && tar -czf logs.tgz *.log ptxas.txt && rm -f *.log ptxas.txt)
ls $G
