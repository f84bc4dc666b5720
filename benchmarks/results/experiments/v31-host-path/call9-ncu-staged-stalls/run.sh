#!/usr/bin/env bash
# Session h, call 9: ncu full set with SASS-level stall sampling: the staged odd uint8 kernel
# (8191x8193), the aligned-load skewed one (8191x8192) and the aligned one (8192^2).
cd "$(dirname "$0")/.."
O=$OUT/p; mkdir -p $O
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
NVCC_APPEND_FLAGS=-lineinfo python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
export PYTHONPATH=$PWD
timeout 400 ncu --set full --import-source no --clock-control none -k regex:tiled_transpose -c 3 \
  -o $O/prof python3 benchmarks/profile_cases.py odd_u8 rows_u8 aligned_u8 > $O/ncu.log 2>&1
echo "ncu rc $? $SECONDS s"; tail -3 $O/ncu.log
ncu -i $O/prof.ncu-rep --page details > $O/details.txt 2>&1
ncu -i $O/prof.ncu-rep --page source --csv --print-source sass > $O/source-all.csv 2>&1
for k in 0 1 2; do
  ncu -i $O/prof.ncu-rep --page source --csv --print-source sass --launch-skip $k --launch-count 1 > $O/source-$k.csv 2>&1
done
ls -la $O
rm -f $O/build.log
cd $O && tar czf ../p.tgz details.txt source-*.csv ncu.log && ls -la ../p.tgz
