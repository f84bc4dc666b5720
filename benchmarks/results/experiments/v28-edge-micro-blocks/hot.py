# Step test: output rows whose misalignment steps -1 vs +1 a row, with data served
# from L2 (one input, reused: hot) and from DRAM (rotated: cold), beside the copy.
import json, sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import torch
import torch_transpose
import bench_transpose as bt
for spec in sys.argv[1:]:  # "hot:BxPxC" or "cold:PxC"
    mode, shape_s = spec.split(":")
    shape = tuple(int(n) for n in shape_s.split("x"))
    x = torch.randint(0, 256, shape, dtype=torch.uint8, device="cuda")
    inputs = [x] if mode == "hot" else bt.rotated_inputs(shape, torch.uint8, None)
    contiguous = [t.contiguous() for t in inputs]
    fns = {"ours": (torch.ops.gputranspose.transpose, inputs),
           "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ms = bt.time_interleaved_ms(fns, 200 if mode == "hot" else 40, 10, 4, True)
    ok = torch.equal(torch.ops.gputranspose.transpose(inputs[0]), inputs[0].transpose(-1, -2).contiguous())
    print(json.dumps({"case": spec, "ours_us": round(ms["ours"] * 1e3, 2), "copy_us": round(ms["copy"] * 1e3, 2),
                      "ratio": round(ms["ours"] / ms["copy"], 3), "ok": ok,
                      "kernel": torch_transpose.explain(x)}), flush=True)
    del inputs, contiguous, x
    torch.cuda.empty_cache()
