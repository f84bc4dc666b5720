"""v46 sweep of the wide-element kernel's tile and L2 knobs (GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX,
_WIDE_THREADS, _WIDE_EVICT, read once per process): times gputranspose, the same-shape copy
and, for the heads cases, torch.compile of the same expression, interleaved in rounds;
one JSON line a case.
    python3 wide_sweep.py TAG      (from the repository root, PYTHONPATH=. and benchmarks)"""
import json
import sys

import torch

import torch_transpose  # noqa: F401  (registers the op)
from bench_transpose import DTYPES, aten_transpose_of, rotated_inputs, time_interleaved_ms

HEADS = (8, 2048, 32, 128)
# dtype, shape, dims, compiled peer: element bytes, input rows apart
CASES = [
    ("uint8", HEADS, (1, 2), True),              # 128 B, 4 KiB
    ("bfloat16", HEADS, (1, 2), True),           # 256 B, 8 KiB
    ("float32", HEADS, (1, 2), True),            # 512 B, 16 KiB
    ("float64", HEADS, (1, 2), True),            # 1 KiB, 32 KiB
    ("complex128", HEADS, (1, 2), False),        # 2 KiB, 64 KiB (compile: ATen's kernel)
    ("float64", (4096, 4096, 4), (0, 1), False),  # 32 B, 128 KiB
    ("complex128", (4096, 4096, 4), (0, 1), False),  # 64 B, 256 KiB
    ("float64", (16384, 1024, 4), (0, 1), False),    # 32 B, 32 KiB
    ("float32", (2048, 8192, 16), (0, 1), False),    # 64 B, 512 KiB
    ("float32", (4096, 512, 64), (0, 1), False),     # 256 B, 128 KiB
    ("float32", (65536, 64, 16), (0, 1), False),     # 64 B, 4 KiB
    ("float16", (4, 1024, 256, 128), (1, 2), False),  # 256 B, 64 KiB
    ("bfloat16", (16, 4096, 8, 64), (1, 2), False),  # 128 B, 1 KiB
]


def main(tag):
    for knob in ("recompile_limit", "cache_size_limit"):
        if hasattr(torch._dynamo.config, knob):
            setattr(torch._dynamo.config, knob, 4096)
    op = torch.ops.gputranspose.transpose
    for dtype_name, shape, dims, with_compile in CASES:
        inputs = rotated_inputs(shape, DTYPES[dtype_name], None)
        probe = inputs[0]
        assert torch_transpose.explain(probe, *dims)["path"] == "wide_elements"
        expected = probe.transpose(*dims).contiguous()
        if not torch.equal(op(probe, *dims).view(-1).view(torch.uint8), expected.view(-1).view(torch.uint8)):
            raise SystemExit(f"WRONG RESULT {tag} {dtype_name} {shape}")
        cases = {"ours": (lambda x: op(x, *dims), inputs),
                 "copy": (lambda c: torch.empty_like(c).copy_(c), inputs)}
        if with_compile:
            cases["compile"] = (torch.compile(aten_transpose_of(dims), dynamic=False), inputs)
        t = time_interleaved_ms(cases, reps=60, warmup=5, rounds=6, head_start=True)
        row = {"tag": tag, "dtype": dtype_name, "shape": "x".join(map(str, shape)), "dims": dims,
               "ours_us": 1e3 * t["ours"], "copy_us": 1e3 * t["copy"],
               "ours_over_copy": t["ours"] / t["copy"]}
        if with_compile:
            row["compile_us"] = 1e3 * t["compile"]
            row["compile_over_copy"] = t["compile"] / t["copy"]
        print(json.dumps(row), flush=True)
        del inputs, probe, expected, cases
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
