#!/usr/bin/env bash
# Session 2026-11-21 f, device call 6 (H200): a = v29 (HEAD, fb25007), b = v29 with evict_last
# only where the input is larger than L2 (working tree), c = v28 (4a6aaf8). GPU time of the
# small shapes for each tree in turn (two rounds), then large shapes in alternating rounds.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/ab
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $OUT/ab/build-a.log 2>&1) &
(python3 setup.py build_ext --inplace > $OUT/ab/build-b.log 2>&1) &
(cd .ab/c && python3 setup.py build_ext --inplace > $OUT/ab/build-c.log 2>&1) &
wait; date -u
for round in 1 2; do for v in a b c; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
  (cd $dir && PYTHONPATH=$dir timeout 60 python3 $ROOT/benchmarks/gpu_time_small.py --out $OUT/ab/small-$v$round.json > $OUT/ab/small-$v$round.log 2>&1); echo "small $v$round rc $?"
done; done
python3 - $OUT/ab <<'PY'
import json, sys, statistics
d = sys.argv[1]
res = {}
for v in "abc":
    for r in (1, 2):
        for row in json.load(open(f"{d}/small-{v}{r}.json"))["rows"]:
            res.setdefault((row["dtype"], row["shape"]), {}).setdefault(v, []).append(row["gputranspose_us"])
print(f"{'dtype':14s} {'shape':12s} {'a v29':>8s} {'b':>8s} {'c v28':>8s}  b/a    c/a")
for k, t in res.items():
    m = {v: statistics.median(x) for v, x in t.items()}
    print(f"{k[0]:14s} {k[1]:12s} {m['a']:8.2f} {m['b']:8.2f} {m['c']:8.2f}  {m['b']/m['a']:.3f}  {m['c']/m['a']:.3f}")
PY
OUT=$OUT/ab AB_ROUNDS=2 timeout 300 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bfloat16 float32 float64 complex128 --shapes 8192x8192 4096x32768 32x2048x2048 2>&1 | grep -c tiled
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
rm -f $OUT/ab/build-*.log
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
