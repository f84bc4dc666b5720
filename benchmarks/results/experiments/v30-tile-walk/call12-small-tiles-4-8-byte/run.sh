#!/usr/bin/env bash
# Session 2026-11-21 g, device call 12 (H200): GPU time of small shapes (gpu_time_small.py),
# a = HEAD (v30), b = small tiles for 4- and 8-byte elements too where all tiles fit at once
# (64 x 32 and 32 x 32, 8 KiB: twice as many blocks as the wide tiles), alternating, 3 rounds.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/g; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $O/build-a.log 2>&1) &
(python3 setup.py build_ext --inplace > $O/build-b.log 2>&1) &
wait
echo "built $SECONDS s"
for round in 1 2 3; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir:$dir/benchmarks timeout 100 python3 benchmarks/gpu_time_small.py --dtypes float32 float64 complex64 \
       --out $O/gpu-time-$v$round.json > $O/gpu-time-$v$round.log 2>&1); echo "$v$round rc $?"
  done
done
python3 - $O <<'PY'
import json, sys, statistics, glob
d = sys.argv[1]; t = {}
for f in sorted(glob.glob(d + "/gpu-time-*.json")):
    v = f.split("gpu-time-")[1][0]
    for r in json.load(open(f))["rows"]:
        t.setdefault((r["dtype"], r["shape"]), {}).setdefault(v, []).append((r["gputranspose_us"], r["copy_us"], r.get("cublas_us")))
for k, vv in t.items():
    a = statistics.median(x[0] for x in vv["a"]); b = statistics.median(x[0] for x in vv["b"])
    c = statistics.median(x[1] for x in vv["a"] + vv["b"]); g = [x[2] for x in vv["a"] if x[2]]
    print(f"{k[0]:10s} {k[1]:12s} a {a:6.2f} b {b:6.2f} ({100*(b/a-1):+5.1f}%) copy {c:6.2f} b/copy {b/c:.3f}" + (f" cublas {statistics.median(g):6.2f}" if g else ""))
PY
rm -f $O/build-*.log; (cd $O && tar czf $OUT/g.tgz .); date -u
