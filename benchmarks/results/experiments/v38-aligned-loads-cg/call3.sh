#!/usr/bin/env bash
# v38 device call 3 (carry .ab): aligned loads past L1. a = HEAD (.ab/base, plain loads),
# b = the working tree (GPUTRANSPOSE_ALIGNED_LOADS 1: ld.global.cg), c = .ab/c (2: .cg with
# the L2::256B prefetch hint); built side by side, then bench_pitches.py in rounds a, b, c.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v38-3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
build() { (cd "$1" && rm -rf build torch_transpose/_C*.so && MAX_JOBS=6 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build-$2.log 2>&1; echo "built $2 rc $?"); }
build $ROOT/.ab/base a & build $ROOT b & build $ROOT/.ab/c c & wait
for v in a b c; do grep -E "Used [0-9]+ registers|spill" $G/build-$v.log | grep -c "[1-9][0-9]* bytes spill stores" | sed "s/^/$v kernels with spills: /"; done
CASES="uint8:8192x8192 uint8:16384x16384 uint8:32768x4096 uint8:4096x4096 uint8:8191x8192 uint8:8191x8193
  bfloat16:8192x8192 bfloat16:8191x8192 float32:8192x8192 float32:8191x8192 float64:8192x8192
  float64:32768x4096 complex128:8192x8192"
for round in 1 2 3; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
    PYTHONPATH=$dir timeout 150 python3 benchmarks/bench_pitches.py --cases $CASES --rounds 2 \
      --tag $v$round --out $G/$v$round.json > $G/$v$round.log 2>&1 || echo "$v$round rc $?"
  done
  echo "round $round done"
done
python3 - $G <<'PY'
import json, sys, glob, collections, statistics
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1] + "/[abc][123].json")):
    for r in json.load(open(f))["rows"]:
        rows[(r["dtype"], r["shape"])][r["tag"][0]].append(r["ours_over_copy"])
print(f"{'case':28s} {'a':>6s} {'b':>6s} {'c':>6s}  b/a-1  c/a-1  (median of rounds, x copy)")
for k, v in rows.items():
    m = {t: statistics.median(v[t]) for t in v}
    print(f"{k[0] + ' ' + k[1]:28s} {m['a']:6.3f} {m['b']:6.3f} {m['c']:6.3f} {100*(m['b']/m['a']-1):+5.1f}% {100*(m['c']/m['a']-1):+5.1f}%"
          f"  spread a {min(v['a']):.3f}-{max(v['a']):.3f}")
PY
date -u | tee -a $G/device.txt
