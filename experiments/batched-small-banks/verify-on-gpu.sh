#!/usr/bin/env bash
# batched-small-banks on the GPU (README.md), one machine, about 300 s. Applies banks.patch to
# the device's copy if it is not applied yet; the before build is the tree with it reversed. Each build:
# the A/B of the rule, batched_small=0 (never) and batched_small=1 (whatever the tiles' fill)
# on the sweep's distribution (seeds 101-103) in one process; then the two builds' times of
# the batched-small kernel compared case by case (the never variant, the same code in both
# builds, gives the machine's drift); then the batched-small GPU tests and compute-sanitizer's four tools on its cases, on the
# after build.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
P=experiments/batched-small-banks/banks.patch
H=csrc/core/cuda/batched_small_transpose.cuh
status=0
build() {
  touch "$H"  # a build kept on a warm machine may be of the other header
  GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
    > "$OUT/build-$1.log" 2>&1 || { tail -30 "$OUT/build-$1.log"; exit 1; }
  echo "$1: $(grep -A3 "Compiling entry function '[^']*batched_small_transpose_kernelILb0EhE" \
    "$OUT/build-$1.log" | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | sort -u | tr '\n' ' ')"
}
ab() {
  timeout 200 python3 benchmarks/bench_ab.py --variant rule= --variant never=batched_small=0 --seeds 101,102,103 --time-limit 150 \
    --out "$OUT/ab-$1.json" > "$OUT/ab-$1.log" 2>&1 || status=1
  tail -12 "$OUT/ab-$1.log"
}
nvidia-smi --query-gpu=name --format=csv,noheader
if ! git apply --check -R "$P" 2>/dev/null; then git apply "$P" || exit 1; fi
git apply -R "$P" || exit 1
build before
ab before
git apply "$P" || exit 1
build after
ab after
python3 - "$OUT/ab-after.json" "$OUT/ab-before.json" <<'PY' || status=1
import json, math, sys
def load(path):
    return {(r["seed"], r["id"]): r for r in json.load(open(path))["records"]
            if "ratio" in r and not r.get("wrong")}
walk, old = load(sys.argv[1]), load(sys.argv[2])
rows = []
for k in walk.keys() & old.keys():
    w, o = walk[k], old[k]
    for v in ("rule",):
        if "batched_small" in (w["kernels"][v] or ""):
            rows.append((w, o, v))
            break
print(f"{len(rows)} cases in the batched-small kernel in both builds")
for name, sel in (("all", rows), ("16 MiB+", [r for r in rows if r[0]["bytes"] >= 16 << 20])):
    if sel:
        g = math.exp(sum(math.log(w["ratio"][v] / o["ratio"][v]) for w, o, v in sel) / len(sel))
        d = math.exp(sum(math.log(w["ratio"]["never"] / o["ratio"]["never"]) for w, o, v in sel) / len(sel))
        print(f"{name}: {len(sel)} cases, after/before {g:.3f} (never/never {d:.3f})")
for w, o, v in sorted(rows, key=lambda r: r[0]["ratio"][r[2]] / r[1]["ratio"][r[2]]):
    print(f"  {w['dtype']} {w['shape']} {w['dims']} {w['view']} {w['bytes'] >> 20} MiB {v}: "
          f"{o['ratio'][v]:.2f}x -> {w['ratio'][v]:.2f}x a copy (never {w['ratio']['never']:.2f}x)")
PY
timeout 150 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "barely_filled or pitch_apart or rows_off_16" > "$OUT/pytest.log" 2>&1 || status=1
tail -2 "$OUT/pytest.log"
for tool in memcheck racecheck initcheck synccheck; do
  log="$OUT/sanitize-$tool.log"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 scripts/sanitizer_cases.py "batched small" "pitched rows" > "$log" 2>&1 || status=1
  echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1); $(grep -cE 'batched_small' "$log") batched-small cases"
done
echo "status $status"
exit $status
