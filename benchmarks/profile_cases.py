"""Runs one transpose per named case, for a profiler (ncu) to look at:
    ncu --clock-control none -k regex:tiled_transpose python3 benchmarks/profile_cases.py aligned_u8 odd_u8"""

import sys

import torch

import torch_transpose  # noqa: F401  (registers the op)

CASES = {
    "aligned_u8": lambda: torch.randint(0, 256, (8192, 8192), dtype=torch.uint8, device="cuda"),
    "rows_u8": lambda: torch.randint(0, 256, (8191, 8192), dtype=torch.uint8, device="cuda"),
    "odd_u8": lambda: torch.randint(0, 256, (8191, 8193), dtype=torch.uint8, device="cuda"),
    "slice_u8": lambda: torch.randint(0, 256, (8192, 8209), dtype=torch.uint8, device="cuda")[:, :-17],
    "odd_bf16": lambda: torch.randn(8191, 8193, device="cuda", dtype=torch.bfloat16),
    "slice_bf16": lambda: torch.randn(8192, 8209, device="cuda", dtype=torch.bfloat16)[:, :-17],
    "odd_f32": lambda: torch.randn(8191, 8193, device="cuda"),
    "odd_f64": lambda: torch.randn(8191, 8193, device="cuda", dtype=torch.float64),
    "slice_f64": lambda: torch.randn(8192, 8209, device="cuda", dtype=torch.float64)[:, :-17],
    "small_batch_u8": lambda: torch.randint(0, 256, (4096, 64, 64), dtype=torch.uint8, device="cuda"),
}

for name in sys.argv[1:] or CASES:
    x = CASES[name]()
    torch.ops.gputranspose.transpose(x)
    torch.cuda.synchronize()
    print(name, torch_transpose.explain(x))
