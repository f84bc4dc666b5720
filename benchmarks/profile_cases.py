"""Runs one transpose per named case, for a profiler (ncu) to look at:
    ncu --clock-control none -k regex:tiled_transpose python3 benchmarks/profile_cases.py aligned_u8 odd_u8
copyproxy_64M runs an elementwise kernel of a copy's bytes instead (-k 'regex:tiled_transpose|vectorized_elementwise')."""

import sys

import torch

import torch_transpose  # noqa: F401  (registers the op)

CASES = {
    "aligned_u8": lambda: torch.randint(0, 256, (8192, 8192), dtype=torch.uint8, device="cuda"),
    "rows_u8": lambda: torch.randint(0, 256, (8191, 8192), dtype=torch.uint8, device="cuda"),
    # Output rows of 8193 bytes: their misalignment steps +1 a row, where 8191's steps -1 (v27).
    "rows_up_u8": lambda: torch.randint(0, 256, (8193, 8192), dtype=torch.uint8, device="cuda"),
    "odd_u8": lambda: torch.randint(0, 256, (8191, 8193), dtype=torch.uint8, device="cuda"),
    "slice_u8": lambda: torch.randint(0, 256, (8192, 8209), dtype=torch.uint8, device="cuda")[:, :-17],
    "odd_bf16": lambda: torch.randn(8191, 8193, device="cuda", dtype=torch.bfloat16),
    "slice_bf16": lambda: torch.randn(8192, 8209, device="cuda", dtype=torch.bfloat16)[:, :-17],
    "odd_f32": lambda: torch.randn(8191, 8193, device="cuda"),
    "odd_f64": lambda: torch.randn(8191, 8193, device="cuda", dtype=torch.float64),
    "slice_f64": lambda: torch.randn(8192, 8209, device="cuda", dtype=torch.float64)[:, :-17],
    "small_batch_u8": lambda: torch.randint(0, 256, (4096, 64, 64), dtype=torch.uint8, device="cuda"),
    "aligned_bf16": lambda: torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16),
    "rows_bf16": lambda: torch.randn(8191, 8192, device="cuda", dtype=torch.bfloat16),
    "aligned_f32": lambda: torch.randn(4096, 4096, device="cuda"),
    "rows_f32": lambda: torch.randn(4095, 4096, device="cuda"),
}
# Not a transpose: an elementwise kernel that reads and writes 64 MiB as a copy
# does (ncu cannot profile the copy itself, a cudaMemcpy).
COPY_PROXY = "copyproxy_64M"

for name in sys.argv[1:] or CASES:
    if name == COPY_PROXY:
        torch.bitwise_not(torch.randint(0, 256, (8192, 8192), dtype=torch.uint8, device="cuda").view(torch.int32))
        torch.cuda.synchronize()
        print(name)
        continue
    x = CASES[name]()
    torch.ops.gputranspose.transpose(x)
    torch.cuda.synchronize()
    print(name, torch_transpose.explain(x))
