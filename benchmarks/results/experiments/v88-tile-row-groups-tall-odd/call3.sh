#!/usr/bin/env bash
# Session af: where do groups of 8 tile-rows pay, beyond the tall inputs? One build (the
# product with the rule); a = GPUTRANSPOSE_TILE_GROUP=1000000 (whole columns everywhere),
# b = GPUTRANSPOSE_TILE_GROUP=8 (groups of 8 everywhere); processes a b b a; the suite's
# rows whose rows start anywhere, every element size, and the tall inputs whose columns
# hold 128 tiles, which the rule as first built left whole. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/g8; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
cases="uint8:8191x8193 uint8:8192x8192:8209 bfloat16:8191x8193 bfloat16:8192x8192:8209
  float32:8191x8193 float32:8192x8192:8209 float64:8191x8193 float64:8192x8192:8209
  complex64:8191x8193 complex64:8192x8192:8209 complex128:8191x8193 complex128:8192x8192:8209
  uint8:32768x4097 bfloat16:32768x4097 float32:32768x4097 float64:32768x4097 complex128:32768x4097
  float32:16384x16384:16401 bfloat16:16384x16384:16401"
run=0
for v in a b b a; do
  run=$((run + 1))
  if [ $v = a ]; then export GPUTRANSPOSE_TILE_GROUP=1000000; else export GPUTRANSPOSE_TILE_GROUP=8; fi
  timeout 130 python3 benchmarks/bench_pitches.py --rounds 2 --tag $v --out $G/run$run-$v.json \
    --cases $cases > $G/run$run-$v.log 2>&1
  echo "run $run ($v) rc $?"
done
python3 - $G <<'PY'
import json, sys, glob, statistics
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/run*.json")):
    for r in json.load(open(f))["rows"]:
        rows.setdefault(r["dtype"] + " " + r["shape"], {}).setdefault(r["tag"], []).append(r)
for case, by in rows.items():
    a = [r["ours_over_copy"] for r in by["a"]]; b = [r["ours_over_copy"] for r in by["b"]]
    ta = statistics.mean(r["gputranspose_us"] for r in by["a"]); tb = statistics.mean(r["gputranspose_us"] for r in by["b"])
    print(f"{case:36s} a {min(a):.3f}-{max(a):.3f}  b {min(b):.3f}-{max(b):.3f}  b/a {100*(tb/ta-1):+.1f}%")
PY
date -u | tee -a $G/device.txt
gzip $G/build.log; (cd $G && tar -czf logs.tgz *.log build.log.gz && rm -f *.log build.log.gz)
ls $G
