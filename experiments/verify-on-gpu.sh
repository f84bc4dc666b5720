#!/usr/bin/env bash
# The running experiments' GPU verification (experiments/*/README.md); each patch applies
# alone and with the other:
#   check:   apply both patches (skipped where applied), build, the CUDA test files (CUDA
#            required), compute-sanitizer's four tools on the nd-tile cases (about 200 s);
#   ab:      nd-routing's A/B: the rule against nd tiles wherever the plan has them, on the
#            permute sweep's random cases (100 a seed) and the transpose sweep's (200 a seed;
#            seeds 101-103; any card, one process), about 300 s;
#   permute: nd-words: the permute sweep (55 fixed, 120 random cases), compared case by case
#            with the committed H100 one (1f25070; run it on an H100), about 260 s;
#            (AB_TIME: the permute A/B's seconds, 180; AB_TRANSPOSES=0: the permute part alone)
#   words:   after ab, on the same machine: the permute A/B without nd-words, compared case
#            by case with ab's nd variant (about 230 s);
#   runs:    a measurement for the next rule (no patch needed): the element-runs kernel
#            wherever it applies against the rule (ATen's copy for strided 8-byte values,
#            e.g. complex64 (2, 3291450, 1, 15) sliced at 2.60x the copy, sector bound 1.1x),
#            170 cases a seed of 101-103 (of 500 a seed, 370 differ, 72 of them ATen's copy by
#            the rule), about 220 s.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
# (a tree with realigned-wide has both applied and committed)
grep -q "int nd_tiles" csrc/core/kernel_choice.h ||
for p in experiments/nd-routing/nd-routing.patch experiments/nd-words/nd-words.patch; do
  git apply --check -R "$p" 2>/dev/null || git apply "$p" || exit 1
done
# words: nd-words's A/B across two builds on one machine (after `ab`, whose permute A/B ran
# with the words): the same permute A/B with the nd-tile kernel element by element.
[ "${1:-check}" = words ] && { git apply -R experiments/nd-words/nd-words.patch || exit 1; }
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_HUGE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "kernels $(grep -c 'Used [0-9]* registers' "$OUT/build.log"), with spills:" \
  "$(grep spill "$OUT/build.log" | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
status=0
AB_TIME=${AB_TIME:-180}  # the permute A/Bs start no case after it (s)
case "${1:-check}" in
  check)
    timeout 200 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py tests/test_permute.py \
      tests/test_benchmarks.py -q -p no:cacheprovider 2>&1 | tee "$OUT/pytest.log" | tail -15 \
      > "$OUT/pytest-tail.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    tail -6 "$OUT/pytest-tail.txt"
    for spec in "nd tiles|" "realigned wide elements|" "realigned strided elements|--wide-realigned 1"; do
      name=${spec%%|*}
      opts=${spec#*|}
      for tool in memcheck racecheck initcheck synccheck; do
        log="$OUT/sanitize-$tool-${name// /-}.log"
        # shellcheck disable=SC2086  # the options split into words
        PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
          python3 scripts/sanitizer_cases.py "$name" $opts > "$log" 2>&1 || status=1
        echo "$name, $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1);" \
          "$(grep -E 'cases, ' "$log")"
      done
    done
    ;;
  ab)
    timeout 200 python3 benchmarks/bench_ab.py --permute --variant rule= --variant nd=nd_tiles=1 \
      --seeds 101,102,103 --cases 100 --time-limit "$AB_TIME" --out "$OUT/ab-nd-permute.json" \
      > "$OUT/ab-permute.log" 2>&1 || status=1
    grep -E "^(all|A|B|C|copy)," "$OUT/ab-permute.log"; tail -1 "$OUT/ab-permute.log"
    [ "${AB_TRANSPOSES:-1}" = 0 ] || timeout 120 python3 benchmarks/bench_ab.py --variant rule= --variant nd=nd_tiles=1 \
      --seeds 101,102,103 --cases 200 --time-limit 100 --out "$OUT/ab-nd-transpose.json" \
      > "$OUT/ab-transpose.log" 2>&1 || status=1
    grep -E "^(all|dim|odd)" "$OUT/ab-transpose.log"; tail -1 "$OUT/ab-transpose.log"
    python3 experiments/nd-routing/analyze_ab.py "$OUT"/ab-nd-*.json
    ;;
  permute)
    # The committed baseline is an H100's: elsewhere the comparison means nothing.
    nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 || { echo "not an H100"; exit 1; }
    timeout 270 python3 benchmarks/bench_permute.py --cases 120 --out-dir "$OUT" --time-limit 240 \
      > "$OUT/permute.log" 2>&1 || status=1
    tail -12 "$OUT/permute.log"
    new=$(ls "$OUT"/permute-*.json | head -1)
    python3 benchmarks/compare_sweeps.py "benchmarks/results/$(basename "$new")" "$new" --kernel nd_tiles --list 20
    python3 benchmarks/compare_sweeps.py "benchmarks/results/$(basename "$new")" "$new" | head -4
    ;;
  words)
    timeout 200 python3 benchmarks/bench_ab.py --permute --variant rule= --variant nd=nd_tiles=1 \
      --seeds 101,102,103 --cases 100 --time-limit "$AB_TIME" --out "$OUT/ab-nd-permute-elements.json" \
      > "$OUT/ab-permute-elements.log" 2>&1 || status=1
    tail -1 "$OUT/ab-permute-elements.log"
    python3 - "$OUT/ab-nd-permute.json" "$OUT/ab-nd-permute-elements.json" <<'PY'
import json, math, re, sys
def load(path):
    return {(r["seed"], r["id"]): r
            for r in json.load(open(path))["records"] if "ratio" in r and not r.get("wrong")}
words, elements = load(sys.argv[1]), load(sys.argv[2])
groups = {}
for key in words.keys() & elements.keys():
    w, e = words[key], elements[key]
    m = re.match(r"nd_tiles<e=(\d+)", w["kernels"]["nd"])
    if not m:
        continue
    size = "large" if w["bytes"] >= 64 << 20 else "small"
    groups.setdefault((int(m.group(1)), size), []).append((w, e))
print("e size n  words/elements (nd time over the copy's, each build's own)  words x copy")
for (es, size), pairs in sorted(groups.items()):
    g = math.exp(sum(math.log(w["ratio"]["nd"] / e["ratio"]["nd"]) for w, e in pairs) / len(pairs))
    c = math.exp(sum(math.log(w["ratio"]["nd"]) for w, e in pairs) / len(pairs))
    c0 = math.exp(sum(math.log(e["ratio"]["nd"]) for w, e in pairs) / len(pairs))
    print(f"{es} {size} {len(pairs):3d}  {g:.3f}  ({c0:.2f}x -> {c:.2f}x)")
    for w, e in sorted(pairs, key=lambda p: -p[1]["ratio"]["nd"])[:3]:
        print(f"    {w['dtype']} {w['shape']} {w.get('perm')} {w.get('view')}:"
              f" {e['ratio']['nd']:.2f}x -> {w['ratio']['nd']:.2f}x")
PY
    ;;
  realigned)
    timeout 130 python3 benchmarks/bench_ab.py --variant rule= --variant old=wide_realigned=0 \
      --seeds 101,102,103 --time-limit 90 --out "$OUT/ab-realigned.json" > "$OUT/ab-realigned.log" 2>&1 || status=1
    grep -E "^(all|dim|odd)" "$OUT/ab-realigned.log"; tail -1 "$OUT/ab-realigned.log"
    [ "${AB_PERMUTES:-1}" = 0 ] || timeout 100 python3 benchmarks/bench_ab.py --permute --variant rule= --variant old=wide_realigned=0 \
      --seeds 101,102,103 --cases 120 --time-limit 60 --out "$OUT/ab-realigned-permute.json" \
      > "$OUT/ab-realigned-permute.log" 2>&1 || status=1
    grep -E "^(all|A|B|C|copy)," "$OUT/ab-realigned-permute.log"; tail -1 "$OUT/ab-realigned-permute.log"
    timeout 60 python3 experiments/realigned-wide/time_named.py 2>&1 | tee "$OUT/timing.log"
    ;;
  runs)
    timeout 220 python3 benchmarks/bench_ab.py --variant rule= --variant runs=element_runs=1 \
      --seeds 101,102,103 --cases 170 --time-limit 200 --out "$OUT/ab-runs.json" > "$OUT/ab-runs.log" 2>&1 || status=1
    python3 - "$OUT/ab-runs.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    if r["kernels"]["rule"] == "aten_fallback" and "ratio" in r:
        t = r["ratio"]
        print(f"{r['dtype']} {r['shape']} {r['dims']} {r['view']} {r['bytes'] >> 20} MiB:"
              f" runs {t['runs']:.2f} aten {t['aten']:.2f} ({r['kernels']['runs']})")
PY
    grep -E "^(all|dim|odd)" "$OUT/ab-runs.log"; tail -1 "$OUT/ab-runs.log"
    ;;
esac
exit $status
