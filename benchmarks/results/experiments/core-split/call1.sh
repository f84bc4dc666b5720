#!/usr/bin/env bash
# Before/after the core split on one machine: both builds, their SASS compared kernel by
# kernel, and the benchmark suite of each (the new one's results are the committed ones).
set -uo pipefail
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda)"
. scripts/gpu-build-env
export PYTHONPATH=$PWD
t0=$(date +%s)
(cd .ab/base && python3 setup.py build_ext --inplace > "$OUT/build-base.log" 2>&1; echo "base build rc=$? $(( $(date +%s) - t0 )) s") &
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > "$OUT/build-new.log" 2>&1
echo "new build rc=$? $(( $(date +%s) - t0 )) s"
grep -E "Used [0-9]+ registers" "$OUT/build-new.log" | grep -c Used | sed 's/^/ptxas kernels: /'
grep -E "spill" "$OUT/build-new.log" | grep -vc " 0 bytes spill stores, 0 bytes spill loads" | sed 's/^/with spills: /'
wait
cuobjdump -sass .ab/base/torch_transpose/_C*.so > /tmp/base.sass
cuobjdump -sass torch_transpose/_C*.so > /tmp/new.sass
python3 .ab/sass_compare.py /tmp/base.sass /tmp/new.sass > "$OUT/sass-compare.txt"; head -12 "$OUT/sass-compare.txt"
echo "local-memory accesses: $(grep -cE 'LDL|STL' /tmp/new.sass)"
P1="uint8 bool float8_e4m3fn bfloat16 float16"; P2="float32 float64 complex64 complex128"
for part in 1 2; do
  eval dtypes=\$P$part
  (cd .ab/base && PYTHONPATH=$PWD timeout 200 python3 benchmarks/bench_transpose.py --no-compile --dtypes $dtypes --out-dir "$OUT/base$part" > "$OUT/base$part.log" 2>&1; echo "base part $part rc=$?")
  timeout 280 python3 benchmarks/bench_transpose.py --dtypes $dtypes --out-dir "$OUT/new$part" > "$OUT/new$part.log" 2>&1; echo "new part $part rc=$?"
done
python3 .ab/ab_table.py "$OUT"/base1/*.json "$OUT"/base2/*.json -- "$OUT"/new1/*.json "$OUT"/new2/*.json | tee "$OUT/ab.txt"
cd "$OUT" && tar czf logs.tgz *.log base1 base2 sass-compare.txt; rm -rf base1 base2 *.log
echo "total $(( $(date +%s) - t0 )) s"
