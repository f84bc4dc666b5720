"""v35: is the cost of input rows NEAR 128 KiB apart (call 1) ours, or the memory's?
For R x C views of R x P matrices (P around 128 KiB of row): gputranspose, cuBLAS geam
(the same view, lda = P), the same view copied untransposed (`view.contiguous()`: reads
the same rows at the same pitch, writes one contiguous block), and the copy of a
contiguous R x C tensor; CUDA events, rotated inputs, median of rounds
(bench_transpose's timing). Prints each over the contiguous copy."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
import bench_transpose as bench  # noqa: E402

import torch_transpose  # noqa: E402,F401

CASES = [("float64", 16384, 16384, p) for p in (16384, 16386, 16388, 16392, 16400, 16416, 16512)]
CASES += [("complex128", 8191, 8193, 8193), ("complex128", 8192, 8192, 8192),
          ("float32", 4096, 32768, 32768), ("float32", 4096, 32768, 32772),
          ("float64", 8192, 8192, 8192), ("float64", 8192, 8192, 8200)]

print(f"{'case':40s} {'copy us':>8s} {'ours':>6s} {'geam':>6s} {'view.contiguous':>16s}")
for name, rows, cols, pitch in CASES:
    dtype = bench.DTYPES[name]
    view = (lambda x: x[:, :cols]) if pitch != cols else None
    inputs = bench.rotated_inputs((rows, pitch), dtype, view)
    contiguous = [x.contiguous() for x in inputs]
    fns = {"ours": (torch.ops.gputranspose.transpose, inputs),
           "geam": (torch.ops.gputranspose.transpose_cublas, inputs),
           "strided_copy": (lambda v: v.contiguous() if not v.is_contiguous() else v.clone(), inputs),
           "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ref = inputs[0].t().contiguous()
    for k in ("ours", "geam"):
        assert torch.equal(fns[k][0](inputs[0]).view(torch.uint8), ref.view(torch.uint8)), k
    ms = bench.time_interleaved_ms(fns, 40, 5, 4, head_start=True)
    c = ms["copy"]
    print(f"{name + f' {rows}x{cols} pitch {pitch}':40s} {c * 1e3:8.1f} {ms['ours'] / c:6.3f} "
          f"{ms['geam'] / c:6.3f} {ms['strided_copy'] / c:16.3f}", flush=True)
    del inputs, contiguous, ref
    torch.cuda.empty_cache()
