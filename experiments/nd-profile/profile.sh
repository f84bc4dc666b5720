#!/usr/bin/env bash
# Nsight Compute over the nd-tile kernel's 1-byte cases, a 4-byte control and a copy
# (README.md). Development build first; $OUT gets the report as text.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONPATH=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 python3 setup.py build_ext --inplace > "$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
cat > /tmp/nd_cases.py <<'PY'
import torch
import torch_transpose
op = torch.ops.gputranspose
def rev(n): return list(range(n - 1, -1, -1))
# (shape, dtype, permutation or the transposed pair): the nd kernel's 1-byte reversals, its
# 4-byte control, then the other 1-byte kernels at their sweep ratios (H100, 232bf85):
# batched-small (1.66x), the tiled kernel at a fifth filled (2.40x), unit-tiled words (1.87x).
cases = [((3,) * 17, torch.uint8, rev(17)), ((3, 38864, 1651), torch.bool, [2, 1, 0]),
         ((2,) * 24, torch.float32, rev(24)),
         ((87383, 1, 34, 35), torch.bool, (2, 3)), ((67008, 49, 128), torch.bool, (1, 2)),
         ((8, 195, 4096, 3), torch.uint8, (1, 2))]
for shape, dtype, dims in cases:
    x = torch.randint(0, 2, shape, device="cuda").to(dtype)
    if isinstance(dims, tuple):
        run, want = (lambda: op.transpose(x, *dims)), x.transpose(*dims).contiguous()
        print(torch_transpose.explain(x, *dims)["kernel"], flush=True)
    else:
        run, want = (lambda: op.permute(x, dims)), x.permute(dims).contiguous()
        print(torch_transpose.explain_permute(x, dims)["kernel"], flush=True)
    xb, out = x.view(-1).view(torch.uint8), torch.empty(x.numel() * x.element_size(), dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.profiler.start()  # ncu profiles from here (--profile-from-start off)
    y = run()
    torch.bitwise_not(xb, out=out)  # the same bytes through a kernel (copy_ is a cudaMemcpy, which ncu skips)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    assert torch.equal(y, want)
PY
timeout 400 ncu --clock-control none --profile-from-start off \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section WarpStateStats --section SchedulerStats --section Occupancy --section InstructionStats \
  --section ComputeWorkloadAnalysis \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio \
  -o "$OUT/nd" \
  python3 /tmp/nd_cases.py > "$OUT/ncu-run.txt" 2>&1
echo "ncu rc=$?"
# -o writes the report (nd.ncu-rep); its text, every section's body too:
ncu --import "$OUT/nd.ncu-rep" --print-details all > "$OUT/ncu.txt" 2>&1
grep -E "nd_tile|batched_small|tiled_transpose|unit_tiled|elementwise|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|bank_conflicts|Bank Conflicts|bank conflict|wavefronts|op_shared|issue_stalled|Achieved Occupancy|Issue Slots Busy" "$OUT/ncu.txt" | head -240
