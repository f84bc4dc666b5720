"""Does the transpose leave L2 lines that crowd out the next kernel's data?
After each transpose: sum a 24 MB buffer twice and time the second sum (L2-resident if nothing crowds it out)."""
import statistics, torch
import torch_transpose  # noqa
torch.manual_seed(0)
small = torch.randn(6 * 1024 * 1024, device="cuda")  # 24 MB
for dtype, shape in [(torch.uint8, (8192, 8192)), (torch.float32, (8192, 8192)), (torch.float64, (8192, 8192))]:
    xs = [torch.randint(0, 100, shape, device="cuda").to(dtype) for _ in range(4)]
    for label, before in [("none", lambda x: None), ("transpose", torch.ops.gputranspose.transpose),
                          ("copy", lambda x: x.clone())]:
        times = []
        for i in range(40):
            before(xs[i % 4])
            small.sum()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); small.sum(); e.record(); torch.cuda.synchronize()
            times.append(s.elapsed_time(e) * 1000)
        print(f"{str(dtype):15s} {label:10s} second 24 MB sum: median {statistics.median(times[5:]):6.1f} us")
