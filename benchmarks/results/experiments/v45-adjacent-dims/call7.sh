#!/usr/bin/env bash
# Session 2026-11-25 r, device call 7 (an H100): the final v45 code's dims shapes for every
# dtype (clean build, the wide-element tests with CUDA required first), and the Triton
# kernel torch.compile makes for bfloat16 heads (TORCH_LOGS=output_code), which ran 0.9%
# ahead of ours on the H200. Run from the repository root.
set -uo pipefail
ROOT=$PWD
G=$OUT/c7; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
rm -f $G/build.log
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 100 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider -k "adjacent or wide" \
  > $G/pytest.log 2>&1; echo "pytest rc $?"; tail -1 $G/pytest.log
timeout 200 python3 benchmarks/bench_transpose.py --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 \
  --tag dims-h100 --out-dir $G > $G/bench-dims.log 2>&1; echo "bench rc $?"
tail -24 $G/bench-dims.log
TORCH_LOGS=output_code timeout 120 python3 -c "
import torch
x = torch.randn(8, 2048, 32, 128, device='cuda', dtype=torch.bfloat16)
f = torch.compile(lambda t: t.transpose(1, 2).contiguous(), dynamic=False)
f(x); torch.cuda.synchronize()
" > $G/compile-output-code.txt 2>&1; echo "output_code rc $?"
grep -nE "triton_meta|XBLOCK|YBLOCK|num_warps|def triton|tl.load|tl.store|grid" $G/compile-output-code.txt | head -30
date -u | tee -a $G/device.txt
