#!/usr/bin/env bash
# v38 device call 5 (carry .ab): 1-byte aligned-store one-matrix tiles at 512 threads, one
# micro-block each. a = HEAD (.ab/base), b = the working tree; built side by side, then
# bench_pitches.py in rounds a, b (AB_ROUNDS, default 3). Logs in one tarball (the device
# returns at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v38-5; mkdir -p $G/logs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
build() { (cd "$1" && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/logs/build-$2.log 2>&1; echo "built $2 rc $?"); }
build $ROOT/.ab/base a & build $ROOT b & wait
for v in a b; do grep -E "Compiling entry|Used [0-9]+ registers|spill" $G/logs/build-$v.log | sed 's/^ *//' > $G/logs/ptxas-$v.txt
  echo "$v: $(grep -c '[1-9][0-9]* bytes spill stores' $G/logs/ptxas-$v.txt) kernels with spills"; done
CASES="uint8:8192x8192 uint8:16384x16384 uint8:4096x32768 uint8:32768x4096 uint8:4096x4096
  bool:8192x8192 float8_e4m3fn:8192x8192 uint8:8192x8192:8209 uint8:8192x8193 uint8:8191x8193 uint8:8191x8192"
for round in $(seq ${AB_ROUNDS:-3}); do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    PYTHONPATH=$dir timeout 150 python3 benchmarks/bench_pitches.py --cases $CASES --rounds 2 \
      --tag $v$round --out $G/logs/$v$round.json > $G/logs/$v$round.log 2>&1 || echo "$v$round rc $?"
  done
  echo "round $round done"
done
# The batch of 2048^2 matrices goes through the suite's script (bench_pitches takes 2-D cases).
for round in 1 2; do for v in a b; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
  (cd $dir && PYTHONPATH=$dir timeout 120 python3 $ROOT/benchmarks/bench_transpose.py --dtypes uint8 --shapes 32x2048x2048 \
     --no-compile --rounds 3 --out-dir $G/logs --tag batch-$v$round 2>&1 | grep -E "^uint8" | sed "s/^/$v$round /") >> $G/batch.txt
done; done
python3 - $G/logs > $G/summary.txt <<'PY'
import json, sys, glob, collections, statistics
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1] + "/[ab][0-9].json")):
    for r in json.load(open(f))["rows"]:
        rows[(r["dtype"], r["shape"])][r["tag"][0]].append((r["ours_over_copy"], r["gputranspose_us"]))
print(f"{'case':30s} {'a':>6s} {'b':>6s}  b/a-1   (median over rounds of x copy; a range, b range)")
for k, v in rows.items():
    m = {t: statistics.median(x[0] for x in v[t]) for t in v}
    print(f"{k[0] + ' ' + k[1]:30s} {m['a']:6.3f} {m['b']:6.3f} {100*(m['b']/m['a']-1):+5.1f}%"
          f"   a {min(x[0] for x in v['a']):.3f}-{max(x[0] for x in v['a']):.3f}"
          f"  b {min(x[0] for x in v['b']):.3f}-{max(x[0] for x in v['b']):.3f}")
PY
cat $G/summary.txt $G/batch.txt
tar -czf $G/logs.tgz -C $G logs && rm -rf $G/logs
date -u | tee -a $G/device.txt
