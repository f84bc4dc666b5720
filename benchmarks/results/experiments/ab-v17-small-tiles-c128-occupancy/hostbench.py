"""Host cost per call: each implementation called in a tight loop on a small
CUDA tensor, implementations interleaved over rounds; median of rounds."""
import statistics, time, torch, torch_transpose
x = torch.randn(64, 64, device="cuda")
ops = {
 "ops.transpose (packet)": lambda: torch.ops.gputranspose.transpose(x),
 "ops.transpose.default": lambda: torch.ops.gputranspose.transpose.default(x),
 "torch_transpose.transpose": lambda: torch_transpose.transpose(x),
 "ops.transpose_cublas": lambda: torch.ops.gputranspose.transpose_cublas(x),
 "aten mT.contiguous()": lambda: x.mT.contiguous(),
 "empty_like": lambda: torch.empty_like(x),
 "copy (empty_like+copy_)": lambda: torch.empty_like(x).copy_(x),
}
res = {k: [] for k in ops}
for f in ops.values():
    for _ in range(500): f()
for rnd in range(15):
    for name, f in ops.items():
        torch.cuda.synchronize(); n = 1000
        t = time.perf_counter()
        for _ in range(n): f()
        res[name].append((time.perf_counter() - t) / n * 1e6)
for name, v in res.items():
    print(f"{name:28s} median {statistics.median(v):6.2f} us/call  min {min(v):6.2f}")
