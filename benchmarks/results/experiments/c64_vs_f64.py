"""float64 against complex64 (and float64 bytes viewed as complex64) on the odd
shapes, CUDA events, median of 40 calls over 4 rotated inputs. Usage, on a GPU
machine with the package built: python3 c64_vs_f64.py LABEL"""

import sys

import torch

import torch_transpose


def median_us(fn, inputs, reps=40):
    for x in inputs[:3]:
        fn(x)
    torch.cuda.synchronize()
    times = []
    for i in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(inputs[i % len(inputs)])
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return sorted(times)[len(times) // 2]


op = torch.ops.gputranspose.transpose
for shape in [(8191, 8193), (8191, 8192)]:
    f64 = [torch.randn(shape, dtype=torch.float64, device="cuda") for _ in range(4)]
    c64 = [torch.randn(shape, dtype=torch.complex64, device="cuda") for _ in range(4)]
    viewed = [x.view(torch.complex64) for x in f64]
    for name, inputs in [("f64", f64), ("c64", c64), ("f64-as-c64", viewed), ("f64 again", f64)]:
        plan = torch_transpose.explain(inputs[0])
        print(sys.argv[1], shape, name, plan["load_bytes"], plan["store_bytes"],
              f"{median_us(op, inputs):.1f} us")
