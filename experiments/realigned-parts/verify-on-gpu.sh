#!/usr/bin/env bash
# realigned-parts on the GPU (README.md), one machine, about 250 s with the builds:
# the patch applied: build (registers, spills), the realigned GPU tests (CUDA required),
# compute-sanitizer's four tools on the realigned cases, the A/B of the rule against
# wide_realigned=0 on the sweep's cases and time_named.py; then the same A/B and timing with
# the patch reversed, and the two builds' realigned times compared case by case.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
P=experiments/realigned-parts/realigned-parts.patch
build() {
  GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
    > "$OUT/build-$1.log" 2>&1 || { tail -30 "$OUT/build-$1.log"; exit 1; }
  echo "$1: realigned kernel $(grep -A2 'Compiling entry function.*realigned_wide_kernel.*sm_90a' \
    "$OUT/build-$1.log" | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | sort -u | tr '\n' ' ')"
}
ab() {
  timeout 150 python3 benchmarks/bench_ab.py --variant rule= --variant old=wide_realigned=0 \
    --seeds 101,102,103 --time-limit 90 --out "$OUT/ab-$1.json" > "$OUT/ab-$1.log" 2>&1
  tail -1 "$OUT/ab-$1.log"
  timeout 60 python3 experiments/realigned-parts/time_named.py > "$OUT/timing-$1.log" 2>&1
  cat "$OUT/timing-$1.log"
}
status=0
nvidia-smi --query-gpu=name --format=csv,noheader
git apply --check -R "$P" 2>/dev/null || git apply "$P" || exit 1
build parts
timeout 120 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "realigned or wide_elements or strided_eight" 2>&1 | tail -2 || status=1
for spec in "realigned wide elements|" "realigned strided elements|--wide-realigned 1"; do
  for tool in memcheck racecheck initcheck synccheck; do
    # shellcheck disable=SC2086  # the options split into words
    PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 scripts/sanitizer_cases.py "${spec%%|*}" ${spec#*|} > "$OUT/sanitize.log" 2>&1 || status=1
    echo "${spec%%|*}, $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize.log" | tail -1)"
  done
done
ab parts
git apply -R "$P" && build bytes && ab bytes
python3 - "$OUT/ab-parts.json" "$OUT/ab-bytes.json" <<'PY'
import json, math, sys
def load(path):
    return {(r["seed"], r["id"]): r for r in json.load(open(path))["records"]
            if "ratio" in r and not r.get("wrong")}
parts, whole = load(sys.argv[1]), load(sys.argv[2])
pairs = [(parts[k], whole[k]) for k in parts.keys() & whole.keys()]
large = [(p, w) for p, w in pairs if p["bytes"] >= 16 << 20]
for name, sel in (("all", pairs), ("16 MiB+", large)):
    if sel:
        g = math.exp(sum(math.log(p["ratio"]["rule"] / w["ratio"]["rule"]) for p, w in sel) / len(sel))
        print(f"{name}: {len(sel)} cases, parts/bytes {g:.3f}")
for p, w in sorted(pairs, key=lambda pw: pw[0]["ratio"]["rule"] / pw[1]["ratio"]["rule"])[-5:]:
    print(f"  {p['dtype']} {p['shape']} {p['dims']} {p['view']}: {w['ratio']['rule']:.2f}x -> {p['ratio']['rule']:.2f}x")
PY
exit $status
