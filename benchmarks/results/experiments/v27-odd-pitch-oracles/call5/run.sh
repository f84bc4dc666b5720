#!/usr/bin/env bash
# Session d, call 5: one tree (HEAD + GPUTRANSPOSE_FORCE): the odd-shape kernels run on
# aligned rows (skew: skewed stores; stage: staged/word loads; both). Is it their structure
# or the odd pitch that costs?
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
(cd .ab/t_b && python3 setup.py build_ext --inplace > $O/build.log 2>&1) || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
C=""
for d in uint8 bfloat16; do for s in 8192x8192 8320x8320 8191x8192 8191x8193 "8192x8209[:,:-17]"; do C="$C $d/$s"; done; done
for round in 1 2; do
  for f in none skew stage both; do
    (cd .ab/t_b && GPUTRANSPOSE_FORCE=$f PYTHONPATH=$ROOT/.ab/t_b timeout 100 python3 $ROOT/.ab/otime.py ${f:0:2}$round $C) >> $O/times.jsonl 2>> $O/err.txt
  done
  echo "round $round $SECONDS s"
done
python3 - $O/times.jsonl <<'PY' | tee $O/summary.txt
import json, sys, statistics
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
d = {}
for r in rows:
    d.setdefault((r["dtype"], r["shape"]), {}).setdefault(r["tree"][:2], []).append(r)
print("dtype shape " + " ".join(f"{t:>20s}" for t in ("no", "sk", "st", "bo")))
for k, v in d.items():
    cells = []
    for t in ("no", "sk", "st", "bo"):
        m = statistics.median(x["ours_us"] for x in v[t]); c = statistics.median(x["copy_us"] for x in v[t])
        cells.append(f"{m:6.1f} x{m/c:.3f}{'' if all(x['correct'] for x in v[t]) else ' WRONG'}")
    print(f"{k[0]:9s} {k[1]:18s} " + " ".join(f"{c:>20s}" for c in cells))
PY
tail -3 $O/err.txt
cd $O && rm -f build*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
