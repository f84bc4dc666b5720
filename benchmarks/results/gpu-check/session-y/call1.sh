#!/usr/bin/env bash
# Session y, v62 (v58's staged skewed 2-byte rows past L2, only on memory under 4 TB/s) on
# whichever card comes. On an H200 (where v62 keeps the word loads): v58's call 8, the A/B of
# v46, the product, v58 and v60's 128-byte prefetch, then part 1 of the suite (carry .ab,
# prepared as call 8's header says). Elsewhere: a clean build; the rule's choice on this card
# (the kernel that bfloat16 8191x8193 launches, and the memory's clock and bus width); the
# whole test suite with CUDA required (no >2^31-element tests, no sanitizers); part 1 of the
# benchmark suite. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;; esac
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
rm -rf build torch_transpose/_C*.so
OUT=$G TESTS=skip BENCH_ARGS=skip bash scripts/gpu-check > $G/build-check.log 2>&1; echo "build rc $?"
grep -E "^(ptxas|SASS|FAIL)" $G/build-check.log | tee $G/gpu-check-summary.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
python3 - <<'PY' 2>&1 | tee $G/rule.txt
import ctypes, glob, torch, torch_transpose
from torch.profiler import ProfilerActivity, profile
torch.cuda.init()
try:
    found = glob.glob(torch.__path__[0] + "/../nvidia/**/libcudart.so*", recursive=True)
    rt = ctypes.CDLL(found[0] if found else "libcudart.so.13")
    for attr, what in ((36, "memory clock kHz"), (37, "bus width bits")):
        v = ctypes.c_int(); rt.cudaDeviceGetAttribute(ctypes.byref(v), attr, 0); print(what, v.value)
except Exception as e:
    print("attributes not read:", e)
x = torch.randn(8191, 8193, device="cuda").bfloat16()
with profile(activities=[ProfilerActivity.CUDA]) as trace:
    torch.ops.gputranspose.transpose(x, -2, -1); torch.cuda.synchronize()
print(sorted(set(e.name for e in trace.events() if "tiled_transpose" in e.name)))
PY
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 330 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 \
  > $G/pytest.log 2>&1; echo "tests rc $?"
tail -3 $G/pytest.log | tee -a $G/gpu-check-summary.txt
timeout 150 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag part1 --out-dir $G > $G/bench-part1.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1.log
rm -f $G/*.png $G/sass.txt $G/build.log
date -u | tee -a $G/device.txt
