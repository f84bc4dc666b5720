# Time gputranspose on R x C views of R x P uint8 matrices (pitch P), beside the copy of a
# contiguous R x C tensor, interleaved; checks each output. Args: R,C,P ...
import json, sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import torch
import bench_transpose as bt
for spec in sys.argv[1:]:
    R, C, P = (int(v) for v in spec.split(","))
    bases = [torch.randint(0, 256, (R, P), dtype=torch.uint8, device="cuda") for _ in range(4)]
    inputs = [b[:, :C] for b in bases]
    contiguous = [x.contiguous() for x in inputs]
    fns = {"ours": (torch.ops.gputranspose.transpose, inputs),
           "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ms = bt.time_interleaved_ms(fns, 40, 5, 4, True)
    ok = all(torch.equal(torch.ops.gputranspose.transpose(x), x.t().contiguous()) for x in inputs[:2])
    print(json.dumps({"spec": spec, "ours_us": round(ms["ours"] * 1e3, 2), "copy_us": round(ms["copy"] * 1e3, 2),
                      "ratio": round(ms["ours"] / ms["copy"], 3), "correct": ok}), flush=True)
    del bases, inputs, contiguous
    torch.cuda.empty_cache()
