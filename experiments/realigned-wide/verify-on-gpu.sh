#!/usr/bin/env bash
# The realigned wide-element kernel's GPU verification (no network; about 300 s after the
# build): build with ptxas's report (kernels, spills, the realigned kernel's registers), the
# CUDA tests of wide elements (CUDA required), compute-sanitizer's four tools on the
# "realigned wide elements" cases, the A/B of the rule against wide_realigned=0 on the
# transpose sweep's random cases (seeds 101-103), and the named H100 cases timed
# (time_named.py). $OUT gets 6 files: build.log, pytest.log, sanitize.log, ab.log, ab.json,
# timing.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "kernels $(grep -c 'Used [0-9]* registers' "$OUT/build.log"), with spills:" \
  "$(grep spill "$OUT/build.log" | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
echo "realigned kernel: $(grep -A2 'Compiling entry function.*realigned_wide_kernel' "$OUT/build.log" \
  | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | sort -u | tr '\n' ' ')"
status=0
timeout 90 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "realigned or wide_elements_off_16 or sixteen_byte_elements" 2>&1 > "$OUT/pytest.log" || status=1
tail -4 "$OUT/pytest.log"
: > "$OUT/sanitize.log"
for tool in memcheck racecheck initcheck synccheck; do
  echo "== $tool" >> "$OUT/sanitize.log"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 40 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 scripts/sanitizer_cases.py "realigned wide elements" >> "$OUT/sanitize.log" 2>&1 || status=1
  echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize.log" | tail -1);" \
    "$(grep -E 'cases, ' "$OUT/sanitize.log" | tail -1)"
done
grep -E "^[a-z0-9_.]+ +realigned" "$OUT/sanitize.log" | sort -u | cut -c1-150
timeout 130 python3 benchmarks/bench_ab.py --variant rule= --variant old=wide_realigned=0 \
  --seeds 101,102,103 --time-limit 120 --out "$OUT/ab.json" > "$OUT/ab.log" 2>&1 || status=1
grep -E "^(all|A|B|C|copy|dim|odd)" "$OUT/ab.log"; tail -1 "$OUT/ab.log"
timeout 60 python3 experiments/realigned-wide/time_named.py > "$OUT/timing.log" 2>&1 || status=1
cat "$OUT/timing.log"
echo "status $status"
exit $status
