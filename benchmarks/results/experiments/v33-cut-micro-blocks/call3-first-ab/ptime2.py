# A/B timing: gputranspose on dtype R x C views of R x P matrices (pitch P elements) beside
# the copy of a contiguous R x C tensor, interleaved; checks each output bitwise.
# Args: TAG dtype/R,C,P ...  -> one JSON line per case.
import json, sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import torch
import bench_transpose as bt
tag = sys.argv[1]
for case in sys.argv[2:]:
    name, spec = case.split("/")
    dtype = bt.DTYPES[name]
    R, C, P = (int(v) for v in spec.split(","))
    E = torch.empty((), dtype=dtype).element_size()
    bases = [torch.randint(0, 256, (R, P * E), dtype=torch.uint8, device="cuda").view(dtype) for _ in range(4)]
    inputs = [b[:, :C] for b in bases]
    contiguous = [x.contiguous() for x in inputs]
    fns = {"ours": (torch.ops.gputranspose.transpose, inputs),
           "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ms = bt.time_interleaved_ms(fns, 40, 5, 4, True)
    ok = all(torch.equal(bt.bytes_of(torch.ops.gputranspose.transpose(x)), bt.bytes_of(x.t())) for x in inputs[:2])
    print(json.dumps({"tree": tag, "case": case, "ours_us": round(ms["ours"] * 1e3, 2),
                      "copy_us": round(ms["copy"] * 1e3, 2), "ratio": round(ms["ours"] / ms["copy"], 4),
                      "correct": ok}), flush=True)
    del bases, inputs, contiguous
    torch.cuda.empty_cache()
