# Oracle timing (no output check): gputranspose and the copy, interleaved, per tree.
import json, sys, os
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import torch
import bench_transpose as bt
tag = sys.argv[1]
cases = [c.split("/", 1) for c in sys.argv[2:]]
for dtype_name, shape_name in cases:  # "dtype/shape"
    dtype = bt.DTYPES[dtype_name]
    if shape_name in bt.SHAPES:
        shape, view, _ = bt.SHAPES[shape_name]
    else:
        shape, view = tuple(int(n) for n in shape_name.split("x")), None
    inputs = bt.rotated_inputs(shape, dtype, view)
    contiguous = [x.contiguous() for x in inputs]
    fns = {"ours": (torch.ops.gputranspose.transpose, inputs),
           "copy": (lambda c: torch.empty_like(c).copy_(c), contiguous)}
    ms = bt.time_interleaved_ms(fns, 40, 5, 4, True)
    ok = torch.equal(bt.bytes_of(torch.ops.gputranspose.transpose(inputs[0])),
                     bt.bytes_of(bt.aten_transpose(inputs[0])))
    print(json.dumps({"tree": tag, "dtype": dtype_name, "shape": shape_name,
                      "ours_us": ms["ours"] * 1e3, "copy_us": ms["copy"] * 1e3, "correct": ok}), flush=True)
    del inputs, contiguous
    torch.cuda.empty_cache()
