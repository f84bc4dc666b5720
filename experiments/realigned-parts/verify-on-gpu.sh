#!/usr/bin/env bash
# realigned-parts on the GPU (README.md), one machine, about 450 s with the builds. The
# decision first, so that a run cut short at the device's 600 s loses only the checks: the
# bytes-at-a-time build (HEAD): build, the A/B of the rule against wide_realigned=0 on the
# sweep's cases and time_named.py; then the patch applied: build (registers, spills), the
# same A/B and timing, the two builds' realigned times compared case by case; then the
# realigned GPU tests (CUDA required) and compute-sanitizer's four tools on the realigned
# cases, on the patched build.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
P=experiments/realigned-parts/realigned-parts.patch
H=csrc/core/cuda/realigned_wide_transpose.cuh
status=0
build() {
  touch "$H"  # a build kept on a warm machine may be of the other header
  GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
    > "$OUT/build-$1.log" 2>&1 || { tail -30 "$OUT/build-$1.log"; exit 1; }
  # ptxas: "Compiling entry function '...' for 'sm_90'", then 3 lines to "Used N registers".
  echo "$1: realigned kernel $(grep -A3 "Compiling entry function '[^']*realigned_wide_kernel" \
    "$OUT/build-$1.log" | grep -oE "for 'sm_[0-9a-z]+'|Used [0-9]+ registers|[0-9]+ bytes spill stores" \
    | sort -u | tr '\n' ' ')"
}
ab() {
  timeout 150 python3 benchmarks/bench_ab.py --variant rule= --variant old=wide_realigned=0 \
    --seeds 101,102,103 --time-limit 90 --out "$OUT/ab-$1.json" > "$OUT/ab-$1.log" 2>&1 || status=1
  tail -1 "$OUT/ab-$1.log"
  timeout 60 python3 experiments/realigned-parts/time_named.py > "$OUT/timing-$1.log" 2>&1 || status=1
  cat "$OUT/timing-$1.log"
}
nvidia-smi --query-gpu=name --format=csv,noheader
if git apply --check -R "$P" 2>/dev/null; then git apply -R "$P" || exit 1; fi
build bytes
ab bytes
git apply "$P" || exit 1
build parts
ab parts
python3 - "$OUT/ab-parts.json" "$OUT/ab-bytes.json" <<'PY' || status=1
import json, math, sys
def load(path):
    return {(r["seed"], r["id"]): r for r in json.load(open(path))["records"]
            if "ratio" in r and not r.get("wrong")}
parts, whole = load(sys.argv[1]), load(sys.argv[2])
pairs = [(parts[k], whole[k]) for k in parts.keys() & whole.keys()]
print(f"{len(parts)} and {len(whole)} cases, {len(pairs)} in both")
large = [(p, w) for p, w in pairs if p["bytes"] >= 16 << 20]
for name, sel in (("all", pairs), ("16 MiB+", large)):
    if sel:
        g = math.exp(sum(math.log(p["ratio"]["rule"] / w["ratio"]["rule"]) for p, w in sel) / len(sel))
        # old (wide_realigned=0) runs the same code in both builds: the machine's drift
        d = math.exp(sum(math.log(p["ratio"]["old"] / w["ratio"]["old"]) for p, w in sel) / len(sel))
        print(f"{name}: {len(sel)} cases, parts/bytes {g:.3f} (old/old {d:.3f})")
for p, w in sorted(pairs, key=lambda pw: pw[0]["ratio"]["rule"] / pw[1]["ratio"]["rule"])[-5:]:
    print(f"  {p['dtype']} {p['shape']} {p['dims']} {p['view']}: {w['ratio']['rule']:.2f}x -> {p['ratio']['rule']:.2f}x")
PY
timeout 120 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "realigned or wide_elements or strided_eight" > "$OUT/pytest.log" 2>&1 || status=1
tail -2 "$OUT/pytest.log"
for spec in "realigned wide elements|" "realigned strided elements|--wide-realigned 1"; do
  for tool in memcheck racecheck initcheck synccheck; do
    tag=${spec%% elements*}
    log="$OUT/sanitize-$tool-${tag// /-}.log"
    # shellcheck disable=SC2086  # the options split into words
    PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 scripts/sanitizer_cases.py "${spec%%|*}" ${spec#*|} > "$log" 2>&1 || status=1
    echo "${spec%%|*}, $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1);" \
      "$(grep -E '^[0-9]+ cases, ' "$log" | tail -1)"
  done
done
echo "status $status"
exit $status
