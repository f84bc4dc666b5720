#!/usr/bin/env bash
# v39 call 4: a = HEAD, b = releases from the blocks that read the input's last L2-size
# only (first_releasing_tile), c = b with evict_last loads and the same releases in the
# skewed aligned-load kernels of 1-, 4- and 8-byte elements (8191x8192) too.
# Then torch.compile against a and b on the two float64 rows where it led (suite v38).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="uint8:8191x8192 float32:8191x8192 float64:8191x8192 bfloat16:8191x8192 uint8:8192x8192
 uint8:32768x4096 bfloat16:8192x8192 float64:32768x4096 complex128:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
. scripts/gpu-build-env
echo "== L2 after the op, tree c (skewed kernels)"
PYTHONPATH=.ab/c python3 benchmarks/l2_after_op.py --dtypes uint8 float32 float64 \
  --shapes 8192x8192 8191x8192 --reps 30 2>&1 | tail -n 7
mkdir -p "$OUT/compile"
for round in 1 2; do
  for v in a b; do
    d=$([ $v = a ] && echo .ab/base || echo .)
    echo "== torch.compile, tree $v round $round"
    PYTHONPATH=$d python3 benchmarks/bench_transpose.py --dtypes float64 --shapes 32768x4096 32x2048x2048 \
      --out-dir "$OUT/compile" --tag "$v$round" 2>&1 | grep -E "^float64|compile" | tail -n 6
  done
done
python3 - "$OUT/compile" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    for r in json.load(open(f))["rows"]:
        print(f.split("/")[-1], r["shape"], f"ours {r['gputranspose_ms'] * 1e3:.2f} us",
              f"/copy {r['ours_over_copy']:.4f}", f"x compile {r.get('speedup_over_compile', float('nan')):.4f}")
PY
rm -f "$OUT"/compile/*.png; tar -czf "$OUT/compile.tgz" -C "$OUT" compile && rm -rf "$OUT/compile"
