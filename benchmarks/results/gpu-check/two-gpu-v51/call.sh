#!/usr/bin/env bash
# Session v, on a two-GPU machine: build the product from source, then, with CUDA required,
# the two-GPU tests (tests/test_pt2.py::test_second_device_runs_on_its_own_device) and
# the rest of tests/test_pt2.py and tests/test_transpose_cuda.py. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
. scripts/gpu-build-env
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader; date -u
python3 -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda, 'GPUs', torch.cuda.device_count())"
python3 setup.py build_ext --inplace > $OUT/build.log 2>&1; echo "build rc $?"
timeout 120 python3 -m pytest tests/test_pt2.py -q -rs -p no:cacheprovider -k second_device -v 2>&1 | tee $OUT/two-gpu.log | grep -E "PASS|FAIL|SKIP|ERROR|passed|failed"
echo "two-gpu rc ${PIPESTATUS[0]}"
timeout 300 python3 -m pytest tests/test_pt2.py tests/test_transpose_cuda.py -q -rs -p no:cacheprovider 2>&1 | tee $OUT/pt2-cuda.log | tail -4
echo "pt2+cuda rc ${PIPESTATUS[0]}"; date -u
